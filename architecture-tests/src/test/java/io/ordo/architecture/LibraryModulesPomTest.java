package io.ordo.architecture;

import io.ordo.systemtest.ProjectFiles;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static io.ordo.architecture.DomainModulePomTest.children;
import static io.ordo.architecture.DomainModulePomTest.parse;
import static io.ordo.architecture.DomainModulePomTest.text;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every library module is in ordo-bom and publishes its sources and javadoc; the BOM pins Ordo's modules and
 * nothing else, inherits nothing, and follows ordo-parent's version (docs/decisions/library-publishing.md).
 * A new module is a library unless it is listed in {@link #NOT_LIBRARIES}.
 */
class LibraryModulesPomTest {
    /** The CLI, the Spring Boot sample, the tools, the tests and the BOM itself: none is a dependency of an application. */
    static final Set<String> NOT_LIBRARIES = Set.of("ordo-bom", "app-cli", "examples/spring-boot-sample",
            "queue-benchmarks", "queue-jmh", "system-testkit", "system-tests", "architecture-tests");

    private final Path root = ProjectFiles.projectRoot();

    @Test
    void the_bom_pins_every_library_module_and_nothing_else_at_the_parents_version() throws Exception {
        Element parent = parse(root.resolve("pom.xml"));
        Element bom = parse(root.resolve("ordo-bom/pom.xml"));
        String version = text(parent, "version");

        Set<String> pinned = new TreeSet<>();
        List<String> foreign = new ArrayList<>();
        for (Element dependency : descendants(bom, "dependencyManagement", "dependencies", "dependency")) {
            String coordinates = text(dependency, "groupId") + ":" + text(dependency, "artifactId")
                    + ":" + text(dependency, "version");
            if (coordinates.equals("io.ordo:" + text(dependency, "artifactId") + ":" + version)) {
                pinned.add(text(dependency, "artifactId"));
            } else {
                foreign.add(coordinates);
            }
        }

        assertThat(children(bom, "parent")).as("ordo-bom's parent: an imported BOM brings its parent's pins too")
                .isEmpty();
        assertThat(text(bom, "version")).as("ordo-bom's version").isEqualTo(version);
        assertThat(foreign).as("ordo-bom entries that are not an Ordo module at version %s", version).isEmpty();
        assertThat(pinned).as("the modules ordo-bom pins: every module of the parent but %s", NOT_LIBRARIES)
                .isEqualTo(libraryModules());
    }

    @Test
    void every_library_module_builds_its_sources_and_javadoc_jars() throws Exception {
        Map<String, List<String>> missing = new LinkedHashMap<>();
        for (String module : libraryModules()) {
            Set<String> plugins = new TreeSet<>();
            for (Element plugin : descendants(parse(root.resolve(module).resolve("pom.xml")),
                    "build", "plugins", "plugin")) {
                plugins.add(text(plugin, "artifactId"));
            }
            List<String> absent = new ArrayList<>(List.of("maven-source-plugin", "maven-javadoc-plugin"));
            absent.removeAll(plugins);
            if (!absent.isEmpty()) {
                missing.put(module, absent);
            }
        }

        assertThat(missing).as("library modules whose pom does not list these plugins").isEmpty();
    }

    @Test
    void the_bom_pins_its_plugins_at_the_parents_versions() throws Exception {
        Element parent = parse(root.resolve("pom.xml"));
        Element properties = children(parent, "properties").get(0);
        Element bom = parse(root.resolve("ordo-bom/pom.xml"));

        List<Element> plugins = descendants(bom, "build", "pluginManagement", "plugins", "plugin");
        assertThat(plugins).isNotEmpty();
        for (Element plugin : plugins) {
            String artifactId = text(plugin, "artifactId");
            String property = artifactId.replaceFirst("^maven-", "").replaceFirst("-plugin$", "") + ".plugin.version";
            assertThat(text(plugin, "version")).as("%s in ordo-bom, against the parent's %s", artifactId, property)
                    .isEqualTo(text(properties, property));
        }
    }

    /** The elements at the end of the path of names below {@code parent}, e.g. "build", "plugins", "plugin". */
    private static List<Element> descendants(Element parent, String... path) {
        List<Element> level = List.of(parent);
        for (String name : path) {
            List<Element> next = new ArrayList<>();
            for (Element element : level) {
                next.addAll(children(element, name));
            }
            level = next;
        }
        return level;
    }

    private Set<String> libraryModules() throws Exception {
        Set<String> modules = new TreeSet<>();
        for (Element module : descendants(parse(root.resolve("pom.xml")), "modules", "module")) {
            modules.add(module.getTextContent().trim());
        }
        assertThat(modules).containsAll(NOT_LIBRARIES);
        modules.removeAll(NOT_LIBRARIES);
        return modules;
    }
}
