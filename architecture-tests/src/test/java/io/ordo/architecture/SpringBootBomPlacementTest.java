package io.ordo.architecture;

import io.ordo.systemtest.ProjectFiles;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.ordo.architecture.DomainModulePomTest.children;
import static io.ordo.architecture.DomainModulePomTest.parse;
import static io.ordo.architecture.DomainModulePomTest.text;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Boot's BOM is imported by the starter and the sample only, and there after the BOMs of the
 * families Ordo pins, so Ordo's Jackson and Micrometer versions win (docs/decisions/spring-boot-starter.md).
 */
class SpringBootBomPlacementTest {
    private static final List<String> SPRING_MODULES = List.of("ordo-spring-boot-starter", "examples/spring-boot-sample");

    @Test
    void only_the_starter_and_the_sample_import_spring_boot_and_after_ordos_own_boms() throws Exception {
        Path root = ProjectFiles.projectRoot();
        Map<String, List<String>> importsByModule = new TreeMap<>();
        importsByModule.put("(parent)", imports(root.resolve("pom.xml")));
        for (Element modules : children(parse(root.resolve("pom.xml")), "modules")) {
            for (Element module : children(modules, "module")) {
                String name = module.getTextContent().trim();
                importsByModule.put(name, imports(root.resolve(name).resolve("pom.xml")));
            }
        }

        importsByModule.forEach((module, imports) -> {
            if (SPRING_MODULES.contains(module)) {
                assertThat(imports).as("the BOMs %s imports, in order", module).containsSubsequence(
                        "com.fasterxml.jackson:jackson-bom", "io.micrometer:micrometer-bom",
                        "org.springframework.boot:spring-boot-dependencies");
            } else {
                assertThat(imports).as("the BOMs %s imports", module)
                        .doesNotContain("org.springframework.boot:spring-boot-dependencies");
            }
        });
        assertThat(importsByModule).containsKeys(SPRING_MODULES.toArray(String[]::new));
    }

    private static List<String> imports(Path pom) throws Exception {
        List<String> imports = new ArrayList<>();
        for (Element management : children(parse(pom), "dependencyManagement")) {
            for (Element dependencies : children(management, "dependencies")) {
                for (Element dependency : children(dependencies, "dependency")) {
                    if ("import".equals(text(dependency, "scope"))) {
                        imports.add(text(dependency, "groupId") + ":" + text(dependency, "artifactId"));
                    }
                }
            }
        }
        return imports;
    }
}
