package io.ordo.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The run as people read it (one Markdown table of every figure with its median, min–max and the
 * Ordo/peer ratios, then the bar and the checks) and as tools read it (JSON with every sample).
 */
final class Report {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Results results;
    private final Mode mode;
    private final int repetitions;
    private final Map<String, String> machine;
    private final String startedAt;
    private final double seconds;

    Report(Results results, Mode mode, int repetitions, Map<String, String> machine, String startedAt,
           double seconds) {
        this.results = results;
        this.mode = mode;
        this.repetitions = repetitions;
        this.machine = machine;
        this.startedAt = startedAt;
        this.seconds = seconds;
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("## Ordo benchmarks, ").append(mode.name().toLowerCase()).append(" mode, ").append(startedAt)
                .append("\n\n");
        md.append(String.format("%d repetitions, %.0f s in all. Each cell: median (min–max). "
                + "Ratios are Ordo's median over the peer's (L: Ordo Lettuce, J: Ordo Jedis; Streams on the same "
                + "client when it ran, else on the other). ↓ marks figures where lower is better. C3 and M1 measure the server's work and "
                + "memory, the same whichever client sends the commands: with both clients in the run they are "
                + "measured on Lettuce only. n/a: the contender has no such thing (partitions, order).%n%n",
                repetitions, seconds));
        md.append(table());
        md.append("\n### The bar\n\n").append(bar());
        md.append("\n### Correctness while measuring\n\n").append(checks());
        md.append("\n### Machine\n\n");
        machine.forEach((key, value) -> md.append("- ").append(key).append(": ").append(value).append('\n'));
        return md.toString();
    }

    String table() {
        List<Contender> contenders = results.contenders();
        List<Contender> ordo = contenders.stream().filter(Contender::isOrdo).toList();
        boolean streams = contenders.stream().anyMatch(c -> c == Contender.STREAMS_LETTUCE
                || c == Contender.STREAMS_JEDIS);
        boolean bullmq = contenders.contains(Contender.BULLMQ);
        List<String> header = new ArrayList<>(List.of("figure"));
        contenders.forEach(c -> header.add(c.label()));
        if (streams) {
            header.add("Ordo ÷ Streams");
        }
        if (bullmq) {
            header.add("Ordo ÷ BullMQ");
        }
        StringBuilder md = new StringBuilder(row(header));
        md.append(row(header.stream().map(h -> "---").toList()));
        for (Figure figure : results.figures()) {
            List<String> cells = new ArrayList<>();
            cells.add(figure.label() + " (" + figure.unit().text() + ")"
                    + (figure.better() == Figure.Better.LOWER ? " ↓" : ""));
            for (Contender contender : contenders) {
                cells.add(results.summary(figure, contender).map(s -> cell(figure, s)).orElse("n/a"));
            }
            if (streams) {
                cells.add(ratios(figure, ordo, o -> o.streamsPeer(contenders)));
            }
            if (bullmq) {
                cells.add(ratios(figure, ordo, o -> Optional.of(Contender.BULLMQ)));
            }
            md.append(row(cells));
        }
        return md.toString();
    }

    private String ratios(Figure figure, List<Contender> ordo,
                          java.util.function.Function<Contender, Optional<Contender>> peerOf) {
        List<String> parts = new ArrayList<>();
        for (Contender store : ordo) {
            peerOf.apply(store).flatMap(peer -> results.ratio(figure, store, peer))
                    .ifPresent(r -> parts.add(initial(store) + " " + Bar.times(r)));
        }
        return parts.isEmpty() ? "" : String.join(" · ", parts);
    }

    private static String initial(Contender store) {
        return store == Contender.ORDO_LETTUCE ? "L" : "J";
    }

    private static String cell(Figure figure, Stats.Summary summary) {
        return figure.format(summary.median()) + " (" + figure.format(summary.min()) + "–"
                + figure.format(summary.max()) + ")";
    }

    String bar() {
        List<Bar.Line> lines = Bar.judge(results);
        StringBuilder md = new StringBuilder(row(List.of("figure", "target", "store", "measured", "met")));
        md.append(row(List.of("---", "---", "---", "---", "---")));
        for (Bar.Line line : lines) {
            md.append(row(List.of(line.figure(), line.target(), line.store().label(), line.measured(),
                    line.met().map(met -> met ? "yes" : "**no**").orElse("–"))));
        }
        return md.toString();
    }

    private String checks() {
        StringBuilder md = new StringBuilder();
        for (Results.Finding finding : results.findings()) {
            md.append("- ").append(finding.check().passed() ? "passed" : "**FAILED**").append(": ")
                    .append(finding.contender().label()).append(", ").append(finding.check().name()).append(" (")
                    .append(finding.check().detail()).append(")\n");
        }
        return md.length() == 0 ? "- nothing to check in this selection\n" : md.toString();
    }

    private static String row(List<String> cells) {
        return "| " + String.join(" | ", cells) + " |\n";
    }

    String json() {
        ObjectNode root = JSON.createObjectNode();
        root.put("mode", mode.name().toLowerCase());
        root.put("startedAt", startedAt);
        root.put("seconds", seconds);
        root.put("repetitions", repetitions);
        ObjectNode machineNode = root.putObject("machine");
        machine.forEach(machineNode::put);
        ArrayNode figures = root.putArray("figures");
        for (Figure figure : results.figures()) {
            ObjectNode node = figures.addObject();
            node.put("id", figure.id()).put("workload", figure.workload().name()).put("label", figure.label())
                    .put("unit", figure.unit().text()).put("better", figure.better().name().toLowerCase());
            ObjectNode byContender = node.putObject("contenders");
            for (Contender contender : results.contenders()) {
                results.summary(figure, contender).ifPresent(s -> {
                    ObjectNode c = byContender.putObject(contender.cliName());
                    c.put("median", s.median()).put("min", s.min()).put("max", s.max());
                    ArrayNode raw = c.putArray("samples");
                    results.samples(figure, contender).forEach(raw::add);
                });
            }
            ObjectNode ratios = node.putObject("ratios");
            for (Contender store : results.contenders()) {
                if (!store.isOrdo()) {
                    continue;
                }
                for (Contender peer : results.contenders()) {
                    if (!peer.isOrdo()) {
                        results.ratio(figure, store, peer)
                                .ifPresent(r -> ratios.put(store.cliName() + "/" + peer.cliName(), r));
                    }
                }
            }
        }
        ArrayNode bar = root.putArray("bar");
        for (Bar.Line line : Bar.judge(results)) {
            ObjectNode node = bar.addObject().put("figure", line.figure()).put("target", line.target())
                    .put("store", line.store().cliName()).put("measured", line.measured());
            line.met().ifPresentOrElse(met -> node.put("met", met), () -> node.putNull("met"));
        }
        ArrayNode checks = root.putArray("checks");
        for (Results.Finding finding : results.findings()) {
            checks.addObject().put("contender", finding.contender().cliName()).put("check", finding.check().name())
                    .put("passed", finding.check().passed()).put("detail", finding.check().detail());
        }
        try {
            return JSON.writeValueAsString(root);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
