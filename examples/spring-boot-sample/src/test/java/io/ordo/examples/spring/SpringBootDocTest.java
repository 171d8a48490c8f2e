package io.ordo.examples.spring;

import io.ordo.systemtest.ProjectFiles;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.ordo.systemtest.DocSnippets.between;
import static io.ordo.systemtest.DocSnippets.blockAfter;
import static org.assertj.core.api.Assertions.assertThat;

/** docs/spring-boot.md shows the sample's code and configuration exactly as they are built and tested. */
class SpringBootDocTest {
    private static final Path ROOT = ProjectFiles.projectRoot();
    private static final Path SAMPLE = ROOT.resolve("examples/spring-boot-sample");
    private static final Path CODE = SAMPLE.resolve("src/main/java/io/ordo/examples/spring");

    @Test
    void the_page_shows_the_sample_unchanged() throws IOException {
        List<String> page = Files.readAllLines(ROOT.resolve("docs/spring-boot.md"));

        assertThat(blockAfter("## Add the starter", "```xml", page)).as("the dependencies")
                .isEqualTo(snippet(SAMPLE.resolve("pom.xml"), "<!--", " -->", "dependencies"));
        assertThat(blockAfter("## Configure", "```properties", page)).as("the properties")
                .isEqualTo(snippet(SAMPLE.resolve("src/main/resources/application.properties"), "#", "", "properties"));
        assertThat(blockAfter("## Handle tasks", "```java", page)).as("the handler")
                .isEqualTo(snippet(CODE.resolve("DepositHandler.java"), "//", "", "handler"));
        assertThat(blockAfter("## Publish", "```java", page)).as("the publisher")
                .isEqualTo(snippet(CODE.resolve("DepositController.java"), "//", "", "publisher"));
    }

    private static List<String> snippet(Path file, String open, String close, String name) throws IOException {
        String marker = open + " docs/spring-boot.md " + name + ": ";
        return between(marker + "begin" + close, marker + "end" + close, Files.readAllLines(file));
    }
}
