package io.ordo.architecture;

import io.ordo.systemtest.ProjectFiles;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** queue-domain is JDK only at build time too: its pom may declare test dependencies and nothing else. */
class DomainModulePomTest {
    @Test
    void queue_domain_declares_no_dependency_outside_the_test_scope() throws Exception {
        Path pom = ProjectFiles.projectRoot().resolve("queue-domain/pom.xml");
        Element project = PomXml.project(pom);

        List<String> nonTestDependencies = new ArrayList<>();
        for (Element dependencies : PomXml.children(project, "dependencies")) {
            for (Element dependency : PomXml.children(dependencies, "dependency")) {
                String scope = PomXml.text(dependency, "scope");
                if (!"test".equals(scope)) {
                    nonTestDependencies.add(PomXml.text(dependency, "groupId") + ":" + PomXml.text(dependency, "artifactId")
                            + " (scope " + (scope == null ? "compile" : scope) + ")");
                }
            }
        }

        assertThat(Files.exists(pom)).isTrue();
        assertThat(nonTestDependencies).as("dependencies of %s outside the test scope", pom).isEmpty();
    }
}
