package io.ordo.benchmarks;

import java.util.Arrays;
import java.util.List;

/** The few statistics the harness reports. */
final class Stats {
    private Stats() {
    }

    /** Median, min and max of one figure's samples. */
    record Summary(double median, double min, double max, int samples) {
        static Summary of(List<Double> values) {
            if (values.isEmpty()) {
                return new Summary(Double.NaN, Double.NaN, Double.NaN, 0);
            }
            double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            int n = sorted.length;
            double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
            return new Summary(median, sorted[0], sorted[n - 1], n);
        }
    }

    /** The nearest-rank percentile (0 < p <= 100) of values already sorted ascending. */
    static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p * sorted.length / 100.0 - 1e-9); // 99.9% of 1000 is rank 999, not 1000
        return sorted[Math.min(Math.max(rank, 1), sorted.length) - 1];
    }

    static long[] sorted(long[] values) {
        long[] copy = values.clone();
        Arrays.sort(copy);
        return copy;
    }
}
