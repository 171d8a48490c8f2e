package io.ordo.benchmarks;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Every sample of one run, by figure and contender, with the checks made on the way. */
final class Results {
    private final List<Contender> contenders;
    private final Map<Figure, Map<Contender, List<Double>>> samples = new LinkedHashMap<>();
    private final List<Finding> findings = new ArrayList<>();

    /** A correctness check as one contender passed or failed it. */
    record Finding(Contender contender, Measurement.Check check) {
    }

    /** One figure's median and spread on one contender. */
    record Cell(Figure figure, Contender contender, Stats.Summary summary) {
    }

    Results(List<Contender> contenders) {
        this.contenders = List.copyOf(contenders);
    }

    void add(Contender contender, Measurement measurement) {
        measurement.samples().forEach((figure, values) -> samples
                .computeIfAbsent(figure, f -> new EnumMap<>(Contender.class))
                .computeIfAbsent(contender, c -> new ArrayList<>()).addAll(values));
        measurement.checks().forEach(check -> findings.add(new Finding(contender, check)));
    }

    List<Contender> contenders() {
        return contenders;
    }

    /** The figures measured, in workload order, then in the order they first came. */
    List<Figure> figures() {
        List<Figure> figures = new ArrayList<>(samples.keySet());
        figures.sort(Comparator.comparing(Figure::workload));
        return figures;
    }

    List<Double> samples(Figure figure, Contender contender) {
        return samples.getOrDefault(figure, Map.of()).getOrDefault(contender, List.of());
    }

    Optional<Stats.Summary> summary(Figure figure, Contender contender) {
        List<Double> values = samples(figure, contender);
        return values.isEmpty() ? Optional.empty() : Optional.of(Stats.Summary.of(values));
    }

    Optional<Double> median(Figure figure, Contender contender) {
        return summary(figure, contender).map(Stats.Summary::median);
    }

    /** The first figure of a workload with this id, if it was measured. */
    Optional<Figure> figure(String id) {
        return samples.keySet().stream().filter(f -> f.id().equals(id)).findFirst();
    }

    /** Ordo's median over the peer's median for one figure, when both were measured. */
    Optional<Double> ratio(Figure figure, Contender ordo, Contender peer) {
        return median(figure, ordo).flatMap(mine -> median(figure, peer)
                .filter(theirs -> theirs != 0).map(theirs -> mine / theirs));
    }

    List<Finding> findings() {
        return findings;
    }

    boolean allChecksPassed() {
        return findings.stream().allMatch(f -> f.check().passed());
    }
}
