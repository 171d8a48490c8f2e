package io.ordo.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
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

    /** A report from the JSON {@link #json()} wrote, so a run's Markdown can be made again. */
    static Report read(java.nio.file.Path file) throws java.io.IOException {
        com.fasterxml.jackson.databind.JsonNode root = JSON.readTree(file.toFile());
        List<Contender> contenders = new ArrayList<>();
        root.path("figures").forEach(figure -> figure.path("contenders").fieldNames().forEachRemaining(name -> {
            Contender contender = Contender.fromCliName(name);
            if (!contenders.contains(contender)) {
                contenders.add(contender);
            }
        }));
        contenders.sort(java.util.Comparator.naturalOrder());
        Results results = new Results(contenders);
        root.path("figures").forEach(node -> {
            Figure figure = new Figure(node.path("id").asText(), Workload.valueOf(node.path("workload").asText()),
                    node.path("label").asText(), unit(node.path("unit").asText()),
                    Figure.Better.valueOf(node.path("better").asText().toUpperCase(java.util.Locale.ROOT)));
            node.path("contenders").fields().forEachRemaining(entry -> {
                Measurement measurement = new Measurement();
                entry.getValue().path("samples").forEach(sample -> measurement.add(figure, sample.asDouble()));
                results.add(Contender.fromCliName(entry.getKey()), measurement);
            });
        });
        root.path("checks").forEach(check -> results.add(Contender.fromCliName(check.path("contender").asText()),
                new Measurement().check(check.path("check").asText(), check.path("passed").asBoolean(),
                        check.path("detail").asText())));
        Map<String, String> machine = new LinkedHashMap<>();
        root.path("machine").fields().forEachRemaining(entry -> machine.put(entry.getKey(), entry.getValue().asText()));
        return new Report(results, Mode.valueOf(root.path("mode").asText().toUpperCase(java.util.Locale.ROOT)),
                root.path("repetitions").asInt(), machine, root.path("startedAt").asText(),
                root.path("seconds").asDouble());
    }

    private static Figure.Unit unit(String text) {
        return java.util.Arrays.stream(Figure.Unit.values()).filter(u -> u.text().equals(text)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown unit " + text));
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("## Ordo benchmarks, ").append(mode.name().toLowerCase()).append(" mode, ").append(startedAt)
                .append("\n\n");
        md.append(String.format("%d repetitions, %.0f s in all. Each cell: median (min–max). "
                + "Ratios are Ordo's median over the peer's (L: Ordo Lettuce, J: Ordo Jedis; Streams on the same "
                + "client when it ran, else on the other). ↓ marks figures where lower is better. C3, M1, M2 and M3 "
                + "measure the server's work and memory, the same whichever client sends the commands: with both "
                + "clients in the run they are measured on Lettuce only. n/a: the contender has no such thing "
                + "(partitions, order, the runtime worker, consumer groups, results kept).%n%n",
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

    /** One row per target, one column per Ordo store: what it measured and whether that meets the target. */
    String bar() {
        List<Bar.Line> lines = Bar.judge(results);
        List<Contender> stores = results.contenders().stream().filter(Contender::isOrdo).toList();
        List<String> header = new ArrayList<>(List.of("figure", "target"));
        stores.forEach(store -> header.add(store.label()));
        StringBuilder md = new StringBuilder(row(header)).append(row(header.stream().map(h -> "---").toList()));
        Map<String, Map<Contender, Bar.Line>> rows = new LinkedHashMap<>();
        for (Bar.Line line : lines) {
            rows.computeIfAbsent(line.figure() + "\u0000" + line.target(), key -> new EnumMap<>(Contender.class))
                    .put(line.store(), line);
        }
        rows.forEach((key, byStore) -> {
            Bar.Line any = byStore.values().iterator().next();
            List<String> cells = new ArrayList<>(List.of(any.figure(), any.target()));
            for (Contender store : stores) {
                Bar.Line line = byStore.get(store);
                cells.add(line == null ? "–" : line.measured()
                        + line.met().map(met -> met ? ": met" : ": **not met**").orElse(""));
            }
            md.append(row(cells));
        });
        return md.toString();
    }

    /** Each check once per contender: how many of its runs passed, and the detail of one that failed (or the last). */
    private String checks() {
        Map<String, List<Results.Finding>> grouped = new LinkedHashMap<>();
        for (Results.Finding finding : results.findings()) {
            grouped.computeIfAbsent(finding.contender().label() + ", " + finding.check().name(), k -> new ArrayList<>())
                    .add(finding);
        }
        StringBuilder md = new StringBuilder();
        grouped.forEach((name, findings) -> {
            long passed = findings.stream().filter(f -> f.check().passed()).count();
            Results.Finding shown = findings.stream().filter(f -> !f.check().passed()).findFirst()
                    .orElse(findings.get(findings.size() - 1));
            md.append("- ").append(passed == findings.size() ? "passed" : "**FAILED**").append(' ').append(passed)
                    .append('/').append(findings.size()).append(": ").append(name).append(" (")
                    .append(shown.check().detail()).append(")\n");
        });
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
