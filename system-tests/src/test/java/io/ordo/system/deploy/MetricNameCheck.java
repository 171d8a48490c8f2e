package io.ordo.system.deploy;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compares the metric names deploy/ uses with what a worker's {@code /metrics} exports. A name must
 * be a series that really exists, as a query selects it: {@code ordo_tasks_processed_total}, or a
 * histogram's {@code _bucket}/{@code _count}/{@code _sum} series; the family name of a histogram
 * alone selects nothing and is reported.
 */
final class MetricNameCheck {
    // A sample line: the name, then labels in braces or a space; comments (# HELP, # TYPE) start with #.
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]");

    private MetricNameCheck() {
    }

    /** The series names of a Prometheus text-format scrape. */
    static Set<String> seriesNames(String scrape) {
        Set<String> names = new TreeSet<>();
        for (String line : scrape.split("\n")) {
            Matcher sample = SAMPLE.matcher(line);
            if (!line.startsWith("#") && sample.find()) {
                names.add(sample.group(1));
            }
        }
        return names;
    }

    /** One line per reference to a name the worker does not export; empty when all is well. */
    static List<String> problems(Collection<MetricReference> references, Set<String> exported) {
        return references.stream()
                .filter(reference -> !exported.contains(reference.name()))
                .map(reference -> reference.name() + " is not exported by the worker; used in " + reference.where()
                        + hint(reference.name(), exported))
                .toList();
    }

    private static String hint(String name, Set<String> exported) {
        for (String suffix : List.of("_bucket", "_count", "_sum")) {
            if (exported.contains(name + suffix)) {
                return " (a histogram: query " + name + suffix + ")";
            }
        }
        return "";
    }
}
