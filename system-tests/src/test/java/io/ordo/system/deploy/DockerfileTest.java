package io.ordo.system.deploy;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * deploy/Dockerfile, read rather than built (no Docker engine is needed): two stages, a distroless
 * non-root runtime, and an entrypoint that runs the jar app-cli's shade configuration produces.
 */
@Tag("full")
class DockerfileTest {
    private final List<String> instructions = instructions(DeployKit.read(DeployKit.DEPLOY.resolve("Dockerfile")));

    @Test
    void a_maven_build_stage_feeds_a_distroless_java_17_runtime_stage() {
        assertThat(instructions).filteredOn(line -> line.startsWith("FROM ")).containsExactly(
                "FROM maven:3.9-eclipse-temurin-17 AS build",
                "FROM gcr.io/distroless/java17-debian12:nonroot");
    }

    @Test
    void the_runtime_runs_as_the_non_root_user() {
        assertThat(runtimeStage()).contains("USER nonroot:nonroot");
    }

    @Test
    void the_jar_copied_from_the_build_stage_is_the_one_app_cli_shades_and_the_entrypoint_runs() throws Exception {
        String buildDirectory = workdir(buildStage());
        String shadedJar = "app-cli/" + shadedJarOutputFile().replace("${project.build.directory}", "target");
        String copy = runtimeStage().stream().filter(line -> line.startsWith("COPY --from=build ")).findFirst().orElseThrow();
        String[] parts = copy.split("\\s+");

        assertThat(parts[2]).isEqualTo(buildDirectory + "/" + shadedJar);
        String jarInImage = parts[3];
        String entrypoint = runtimeStage().stream().filter(line -> line.startsWith("ENTRYPOINT ")).findFirst().orElseThrow();
        // exec form (a JSON array): java is PID 1 and gets the kubelet's SIGTERM itself
        assertThat(entrypoint).matches("ENTRYPOINT \\[\".*\"]");
        assertThat(entrypoint).contains("\"/usr/bin/java\"").contains("\"-jar\", \"" + jarInImage + "\"");
    }

    @Test
    void the_build_stage_builds_the_cli_module() {
        assertThat(buildStage()).anyMatch(line -> line.startsWith("RUN ") && line.contains("mvn ")
                && line.contains("-pl app-cli -am") && line.contains("package"));
    }

    private List<String> buildStage() {
        return stage(0);
    }

    private List<String> runtimeStage() {
        return stage(1);
    }

    private List<String> stage(int index) {
        List<List<String>> stages = new ArrayList<>();
        for (String line : instructions) {
            if (line.startsWith("FROM ")) {
                stages.add(new ArrayList<>());
            }
            if (!stages.isEmpty()) {
                stages.get(stages.size() - 1).add(line);
            }
        }
        return stages.get(index);
    }

    private static String workdir(List<String> stage) {
        return stage.stream().filter(line -> line.startsWith("WORKDIR ")).reduce((first, last) -> last)
                .map(line -> line.substring("WORKDIR ".length()).strip()).orElse("/");
    }

    /** The instructions, continuation lines joined, comments and blank lines dropped. */
    private static List<String> instructions(String dockerfile) {
        List<String> instructions = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : dockerfile.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.startsWith("#") || trimmed.isEmpty()) {
                continue;
            }
            if (trimmed.endsWith("\\")) {
                current.append(trimmed, 0, trimmed.length() - 1).append(' ');
                continue;
            }
            current.append(trimmed);
            instructions.add(current.toString().replaceAll("\\s+", " "));
            current.setLength(0);
        }
        return instructions;
    }

    /**
     * The file app-cli's shading writes: app-cli lists maven-shade-plugin, whose outputFile the parent's
     * pluginManagement sets from ${fat.jar.name}, a property app-cli sets (docs/decisions/cli-fat-jar.md).
     */
    private static String shadedJarOutputFile() throws Exception {
        Document cli = pom("app-cli/pom.xml");
        if (shadePlugin(cli) == null) {
            throw new AssertionError("app-cli/pom.xml lists no maven-shade-plugin");
        }
        Element parentShade = shadePlugin(pom("pom.xml"));
        if (parentShade == null) {
            throw new AssertionError("the parent pom manages no maven-shade-plugin");
        }
        String outputFile = parentShade.getElementsByTagName("outputFile").item(0).getTextContent().strip();
        String fatJarName = cli.getElementsByTagName("fat.jar.name").item(0).getTextContent().strip();
        return outputFile.replace("${fat.jar.name}", fatJarName);
    }

    private static Document pom(String path) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(DeployKit.ROOT.resolve(path).toFile());
    }

    private static Element shadePlugin(Document pom) {
        NodeList plugins = pom.getElementsByTagName("plugin");
        for (int i = 0; i < plugins.getLength(); i++) {
            Element plugin = (Element) plugins.item(i);
            if (plugin.getElementsByTagName("artifactId").item(0).getTextContent().equals("maven-shade-plugin")) {
                return plugin;
            }
        }
        return null;
    }
}
