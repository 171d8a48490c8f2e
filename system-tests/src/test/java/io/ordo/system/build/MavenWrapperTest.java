package io.ordo.system.build;

import io.ordo.systemtest.ProjectFiles;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The repository's ./mvnw (docs/decisions/maven-wrapper.md), run from an empty wrapper home: it fetches the
 * pinned Maven through the installed mvn once, starts the cached copy afterwards, and refuses an archive
 * whose SHA-512 is not the pinned one. In the full tier: the first run starts a Maven of its own.
 */
@Tag("full")
class MavenWrapperTest {
    private static final Path ROOT = ProjectFiles.projectRoot();
    private static final Path PROPERTIES = ROOT.resolve(".mvn/wrapper/maven-wrapper.properties");
    private static final int TIMEOUT_SECONDS = 300;

    @TempDir
    Path temp;

    @Test
    void the_first_run_fetches_the_pinned_maven_and_later_runs_start_it_without_the_installed_one() throws Exception {
        String version = pinned().getProperty("mavenVersion");
        Path home = temp.resolve("wrapper-home");

        Run first = run(ROOT.resolve("mvnw"), Map.of("MAVEN_USER_HOME", home.toString()), "-v");

        assertThat(first.exitCode()).as(first.output()).isZero();
        assertThat(first.output()).contains("fetching Maven " + version).contains("Apache Maven " + version + " ");
        assertThat(unpacked(home)).singleElement().asString().startsWith("apache-maven-" + version + "-");

        // an installed mvn that fails if called: the second run must not need it
        Path bin = Files.createDirectories(temp.resolve("bin"));
        Path broken = Files.writeString(bin.resolve("mvn"), "#!/bin/sh\necho installed mvn called >&2\nexit 97\n");
        assertThat(broken.toFile().setExecutable(true)).isTrue();
        Run second = run(ROOT.resolve("mvnw"),
                Map.of("MAVEN_USER_HOME", home.toString(), "PATH", bin + ":" + System.getenv("PATH")), "-v");

        assertThat(second.exitCode()).as(second.output()).isZero();
        assertThat(second.output()).doesNotContain("fetching").doesNotContain("installed mvn called")
                .contains("Apache Maven " + version + " ");
    }

    @Test
    void an_archive_whose_sha512_is_not_the_pinned_one_is_refused_and_nothing_is_unpacked() throws Exception {
        Path copy = temp.resolve("repository");
        Files.createDirectories(copy.resolve(".mvn/wrapper"));
        Files.copy(ROOT.resolve("mvnw"), copy.resolve("mvnw"));
        String sha512 = pinned().getProperty("distributionSha512Sum");
        String wrong = (sha512.charAt(0) == '0' ? "1" : "0") + sha512.substring(1);
        Files.writeString(copy.resolve(".mvn/wrapper/maven-wrapper.properties"),
                Files.readString(PROPERTIES, UTF_8).replace(sha512, wrong));
        Path home = temp.resolve("wrapper-home");

        Run run = run(copy.resolve("mvnw"), Map.of("MAVEN_USER_HOME", home.toString()), "-v");

        assertThat(run.exitCode()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("has SHA-512 " + sha512).contains("not the " + wrong)
                .contains("nothing was unpacked").doesNotContain("Apache Maven ");
        try (Stream<Path> left = Files.list(home.resolve("wrapper/dists"))) {
            assertThat(left).as("what the refused run left in the wrapper home").isEmpty();
        }
    }

    @Test
    void the_wrapper_fetches_with_the_dependency_plugin_the_parent_pom_pins() throws IOException {
        Matcher pinnedInPom = Pattern.compile("<dependency\\.plugin\\.version>([^<]+)</dependency\\.plugin\\.version>")
                .matcher(Files.readString(ROOT.resolve("pom.xml"), UTF_8));

        assertThat(pinnedInPom.find()).as("the parent pom's dependency.plugin.version").isTrue();
        assertThat(pinned().getProperty("dependencyPluginVersion")).isEqualTo(pinnedInPom.group(1));
    }

    private static Properties pinned() {
        Properties properties = new Properties();
        try (var in = Files.newBufferedReader(PROPERTIES, UTF_8)) {
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties;
    }

    /** The Maven copies in a wrapper home, by folder name. */
    private static List<String> unpacked(Path home) throws IOException {
        try (Stream<Path> dists = Files.list(home.resolve("wrapper/dists"))) {
            return dists.map(dist -> dist.getFileName().toString()).toList();
        }
    }

    private record Run(int exitCode, String output) {
    }

    /** Runs the wrapper with more environment, its stdout and stderr together; a run past the timeout is killed. */
    private Run run(Path wrapper, Map<String, String> environment, String... arguments) throws Exception {
        List<String> command = Stream.concat(Stream.of(wrapper.toString()), Stream.of(arguments)).toList();
        Path log = Files.createTempFile(temp, "mvnw-", ".log");
        ProcessBuilder builder = new ProcessBuilder(command).directory(temp.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            fail(String.join(" ", command) + " ran past " + TIMEOUT_SECONDS + " s:\n" + Files.readString(log, UTF_8));
        }
        return new Run(process.exitValue(), Files.readString(log, UTF_8));
    }
}
