package io.ordo.architecture;

import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A pom's elements, read as they are written (no inheritance, no interpolation). */
final class PomXml {
    private PomXml() {
    }

    /** The {@code <project>} element of the pom file. */
    static Element project(Path pom) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(pom.toFile()).getDocumentElement();
    }

    /** The child elements named {@code name}, in order. */
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

    /** The elements at the end of the path of names, e.g. {@code "build", "plugins", "plugin"}. */
    static List<Element> descendants(Element parent, String... path) {
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

    /** The trimmed text of the first child named {@code name}, or null. */
    static String text(Element parent, String name) {
        List<Element> found = children(parent, name);
        return found.isEmpty() ? null : found.get(0).getTextContent().trim();
    }
}
