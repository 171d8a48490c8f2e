package io.ordo.system.library;

import io.ordo.redis.testing.RedisServer;
import io.ordo.systemtest.ProjectFiles;
import io.ordo.systemtest.DocSnippets;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Ordo as an application uses it: a new Maven project in a directory of its own, outside this repository, whose
 * pom is the README's "Use it in your code" block (the BOM imported, a Redis backend and queue-runtime without
 * versions) and whose main method is that section's code, built by {@code mvn package} against the artifacts
 * this build installed in the local repository, then run on a private Redis. Needs {@code mvn install}
 * (scripts/test does it), so it is in the full tier.
 */
@Tag("full")
class LibraryUseTest {
    private static final String SECTION = "## Use it in your code";
    private static final String VERSION = System.getProperty("ordo.version", "0.1.0-SNAPSHOT");

    private static Path repository;

    @TempDir
    Path project;

    @BeforeAll
    static void findTheLocalRepository() {
        String configured = System.getProperty("ordo.maven.repository", "");
        repository = configured.isBlank() ? Path.of(System.getProperty("user.home"), ".m2", "repository")
                : Path.of(configured);
    }

    @Test
    void every_library_artifact_and_the_bom_are_installed_with_the_library_sources() {
        List<String> missing = new ArrayList<>();
        for (String artifact : bomArtifacts()) {
            for (String file : List.of(artifact + "-" + VERSION + ".jar", artifact + "-" + VERSION + "-sources.jar")) {
                if (!Files.isRegularFile(installed(artifact).resolve(file))) {
                    missing.add(file);
                }
            }
        }
        if (!Files.isRegularFile(installed("ordo-bom").resolve("ordo-bom-" + VERSION + ".pom"))) {
            missing.add("ordo-bom-" + VERSION + ".pom");
        }

        assertThat(missing).as("artifacts missing from %s (run mvn install first)", repository.resolve("io/ordo"))
                .isEmpty();
    }

    @Test
    void a_new_project_that_imports_the_bom_builds_on_the_installed_artifacts_and_runs_the_readme_example()
            throws Exception {
        writeProject();

        Run build = run(project, 300, maven(), "-B", "--no-transfer-progress", "-Dmaven.repo.local=" + repository,
                "package", "dependency:build-classpath", "-Dmdep.outputFile=target/classpath.txt");
        if (build.exitCode() != 0) {
            fail("the generated project at " + project + " did not build (exit " + build.exitCode() + "):\n"
                    + build.output());
        }
        String classPath = Files.readString(project.resolve("target/classpath.txt"), UTF_8).strip();
        List<String> entries = Arrays.asList(classPath.split(File.pathSeparator));
        assertThat(entries).as("the generated project's class path")
                .contains(installed("adapter-lettuce").resolve("adapter-lettuce-" + VERSION + ".jar").toString(),
                        installed("queue-runtime").resolve("queue-runtime-" + VERSION + ".jar").toString());

        try (RedisServer redis = RedisServer.start()) {
            Run example = run(project, 60, Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", project.resolve("target/classes") + File.pathSeparator + classPath,
                    "example.Main", redis.uri());

            assertThat(example.exitCode()).as("the example's exit code; it printed:\n%s", example.output()).isZero();
            assertThat(example.output().lines()).as("what the example printed")
                    .contains("welcome mail to alice@example.com");
        }
    }

    /** pom.xml around the README's xml block, and example/Main.java around its java block. */
    private void writeProject() throws IOException {
        List<String> readme = Files.readAllLines(ProjectFiles.projectRoot().resolve("README.md"), UTF_8);
        StringBuilder plugins = new StringBuilder();
        for (String plugin : System.getProperty("ordo.plugin.versions", "").split(",")) {
            if (!plugin.isBlank()) {
                String[] parts = plugin.split(":");
                plugins.append("        <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>").append(parts[0])
                        .append("</artifactId><version>").append(parts[1]).append("</version></plugin>\n");
            }
        }
        String pom = """
                <?xml version="1.0" encoding="UTF-8"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>example</groupId>
                  <artifactId>uses-ordo</artifactId>
                  <version>1.0</version>
                  <properties>
                    <maven.compiler.release>17</maven.compiler.release>
                    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
                  </properties>
                %s
                  <build>
                    <pluginManagement>
                      <plugins>
                %s      </plugins>
                    </pluginManagement>
                  </build>
                </project>
                """.formatted(String.join("\n", DocSnippets.blockAfter(SECTION, "```xml", readme)), plugins);
        Files.writeString(project.resolve("pom.xml"), pom, UTF_8);

        String main = """
                package example;

                import io.ordo.domain.Partition;
                import io.ordo.domain.QueueName;
                import io.ordo.lettuce.LettuceTaskStores;
                import io.ordo.ports.TaskStore;
                import io.ordo.ports.TaskStoreFactory;
                import io.ordo.runtime.Publisher;
                import io.ordo.runtime.codec.JacksonPayloadCodec;
                import io.ordo.runtime.worker.Outcome;
                import io.ordo.runtime.worker.Worker;

                import java.util.concurrent.CountDownLatch;
                import java.util.concurrent.TimeUnit;

                public final class Main {
                    public static void main(String[] args) throws Exception {
                        String redisUri = args[0];
                %s
                    }
                }
                """.formatted(String.join("\n", DocSnippets.blockAfter(SECTION, "```java", readme)));
        Path source = project.resolve("src/main/java/example/Main.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, main, UTF_8);
    }

    private static List<String> bomArtifacts() {
        try {
            String bom = Files.readString(ProjectFiles.projectRoot().resolve("ordo-bom/pom.xml"), UTF_8);
            List<String> artifacts = new ArrayList<>();
            var matcher = Pattern.compile("<groupId>io.ordo</groupId><artifactId>([^<]+)</artifactId>").matcher(bom);
            while (matcher.find()) {
                artifacts.add(matcher.group(1));
            }
            assertThat(artifacts).as("the artifacts ordo-bom pins").isNotEmpty();
            return artifacts;
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static Path installed(String artifact) {
        return repository.resolve("io/ordo").resolve(artifact).resolve(VERSION);
    }

    /** The mvn of the build running this test, or the one on the PATH. */
    private static String maven() {
        String home = System.getProperty("ordo.maven.home", "");
        Path mvn = Path.of(home, "bin", "mvn");
        return !home.isBlank() && Files.isExecutable(mvn) ? mvn.toString() : "mvn";
    }

    private record Run(int exitCode, String output) {
    }

    /** Runs the command in the directory, its stdout and stderr together; a run past the timeout is killed. */
    private static Run run(Path directory, int timeoutSeconds, String... command) throws Exception {
        Path log = Files.createTempFile(directory, "run-", ".log");
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        // the generated project's Maven, like this build's (.mvn/jvm.config): a short-lived JVM, quick compiler only
        builder.environment().put("MAVEN_OPTS", "-XX:TieredStopAtLevel=1");
        Process process = builder.start();
        try {
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                fail(String.join(" ", command) + " ran past " + timeoutSeconds + " s:\n" + Files.readString(log, UTF_8));
            }
            return new Run(process.exitValue(), Files.readString(log, UTF_8));
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
