package io.ordo.system.build;

import io.ordo.systemtest.ProjectFiles;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

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
        String version = pinned().getProperty("mavenVersion");
        String sha512 = pinned().getProperty("distributionSha512Sum");
        // A tampered archive, as a compromised mirror would serve it: laid out like the real one, so a wrapper that
        // skipped the check would unpack it and run its bin/mvn. An installed mvn that only copies it where the
        // wrapper's dependency:copy asks stands in for the real resolver, whose fetch the first test covers.
        Path tampered = temp.resolve("apache-maven-" + version + "-bin.zip");
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(tampered))) {
            zip.putNextEntry(new ZipEntry("apache-maven-" + version + "/bin/mvn"));
            zip.write("#!/bin/sh\necho Apache Maven tampered\n".getBytes(UTF_8));
            zip.closeEntry();
        }
        String actual = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-512").digest(Files.readAllBytes(tampered)));
        Path bin = Files.createDirectories(temp.resolve("bin"));
        Path resolver = Files.writeString(bin.resolve("mvn"), """
                #!/bin/sh
                for arg; do case "$arg" in -DoutputDirectory=*) exec cp '%s' "${arg#-DoutputDirectory=}/" ;; esac; done
                echo "no -DoutputDirectory in: $*" >&2
                exit 97
                """.formatted(tampered));
        assertThat(resolver.toFile().setExecutable(true)).isTrue();
        Path home = temp.resolve("wrapper-home");

        Run run = run(ROOT.resolve("mvnw"),
                Map.of("MAVEN_USER_HOME", home.toString(), "PATH", bin + ":" + System.getenv("PATH")), "-v");

        assertThat(run.exitCode()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("has SHA-512 " + actual).contains("not the " + sha512)
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
        // the installed mvn that fetches, like this build's Maven (.mvn/jvm.config): a short-lived JVM, quick compiler only
        builder.environment().put("MAVEN_OPTS", "-XX:TieredStopAtLevel=1");
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
