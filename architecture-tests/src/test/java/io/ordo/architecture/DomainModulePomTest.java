package io.ordo.architecture;

import io.ordo.systemtest.ProjectFiles;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
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
        Element project = parse(pom);

        List<String> nonTestDependencies = new ArrayList<>();
        for (Element dependencies : children(project, "dependencies")) {
            for (Element dependency : children(dependencies, "dependency")) {
                String scope = text(dependency, "scope");
                if (!"test".equals(scope)) {
                    nonTestDependencies.add(text(dependency, "groupId") + ":" + text(dependency, "artifactId")
                            + " (scope " + (scope == null ? "compile" : scope) + ")");
                }
            }
        }

        assertThat(Files.exists(pom)).isTrue();
        assertThat(nonTestDependencies).as("dependencies of %s outside the test scope", pom).isEmpty();
    }

    /** The {@code <project>} element of a pom, as written (pom tests share these helpers). */
    static Element parse(Path pom) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(pom.toFile()).getDocumentElement();
    }

    /** The child elements of {@code parent} named {@code name} (pom tests share these). */
    static List<Element> children(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            Node node = nodes.item(i);
            if (node instanceof Element element && element.getTagName().equals(name)) {
                found.add(element);
            }
        }
        return found;
    }

    static String text(Element parent, String name) {
        List<Element> found = children(parent, name);
        return found.isEmpty() ? null : found.get(0).getTextContent().trim();
    }
}
