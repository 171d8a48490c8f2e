package io.ordo.system.deploy;

import io.ordo.systemtest.ProjectFiles;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The files of deploy/, parsed: every Kubernetes document, the prometheus-adapter values, the dashboard. */
final class DeployKit {
    static final Path ROOT = ProjectFiles.projectRoot();
    static final Path DEPLOY = ROOT.resolve("deploy");

    private static final YAMLMapper YAML = new YAMLMapper();
    private static final ObjectMapper JSON = new ObjectMapper();

    private DeployKit() {
    }

    /** One YAML document and the file it came from. */
    record Manifest(Path file, JsonNode document) {
        String kind() {
            return document.path("kind").asText();
        }

        @Override
        public String toString() {
            return ROOT.relativize(file) + (kind().isEmpty() ? "" : " (" + kind() + " " + document.at("/metadata/name").asText() + ")");
        }
    }

    /** Every document of every .yaml file under deploy/. */
    static List<Manifest> manifests() {
        try (Stream<Path> files = Files.walk(DEPLOY)) {
            List<Manifest> manifests = new ArrayList<>();
            for (Path file : files.filter(path -> path.toString().endsWith(".yaml")).sorted().toList()) {
                manifests.addAll(readYaml(file));
            }
            return manifests;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Manifest> readYaml(Path file) {
        YAMLFactory factory = YAML.getFactory();
        try (JsonParser parser = factory.createParser(file.toFile());
             MappingIterator<JsonNode> documents = YAML.readValues(parser, JsonNode.class)) {
            List<Manifest> manifests = new ArrayList<>();
            while (documents.hasNextValue()) {
                JsonNode document = documents.nextValue();
                if (document != null && !document.isNull()) {
                    manifests.add(new Manifest(file, document));
                }
            }
            return manifests;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot parse " + file, e);
        }
    }

    static List<Manifest> ofKind(String kind) {
        return manifests().stream().filter(manifest -> manifest.kind().equals(kind)).toList();
    }

    static Manifest single(String kind) {
        List<Manifest> found = ofKind(kind);
        if (found.size() != 1) {
            throw new AssertionError("expected one " + kind + " under deploy/, found " + found);
        }
        return found.get(0);
    }

    static Manifest prometheusAdapterValues() {
        return readYaml(DEPLOY.resolve("kubernetes/hpa/prometheus-adapter-values.yaml")).get(0);
    }

    static Manifest dashboard() {
        Path file = DEPLOY.resolve("grafana/ordo-dashboard.json");
        try {
            return new Manifest(file, JSON.readTree(file.toFile()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot parse " + file, e);
        }
    }

    /** The worker's container in the Deployment. */
    static JsonNode workerContainer() {
        JsonNode containers = single("Deployment").document().at("/spec/template/spec/containers");
        for (JsonNode container : containers) {
            if (container.path("name").asText().equals("worker")) {
                return container;
            }
        }
        throw new AssertionError("the Deployment has no container named worker: " + containers);
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
