package io.ordo.benchmarks;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The statistics, the table and the bar, on made-up samples (no benchmark runs here). */
class ResultsTableTest {
    @Test
    void a_summary_is_the_median_and_the_spread_of_the_samples() {
        assertThat(Stats.Summary.of(List.of(3.0, 1.0, 2.0))).isEqualTo(new Stats.Summary(2.0, 1.0, 3.0, 3));
        assertThat(Stats.Summary.of(List.of(4.0, 1.0, 2.0, 3.0)).median()).isEqualTo(2.5);
        assertThat(Stats.Summary.of(List.of()).median()).isNaN();
    }

    @Test
    void percentiles_are_nearest_rank() {
        long[] sorted = new long[1000];
        for (int i = 0; i < sorted.length; i++) {
            sorted[i] = i + 1;
        }
        assertThat(Stats.percentile(sorted, 50)).isEqualTo(500);
        assertThat(Stats.percentile(sorted, 99)).isEqualTo(990);
        assertThat(Stats.percentile(sorted, 99.9)).isEqualTo(999);
        assertThat(Stats.percentile(new long[] {7}, 99.9)).isEqualTo(7);
        assertThat(Stats.percentile(new long[0], 50)).isZero();
    }

    @Test
    void the_payload_is_100_bytes_of_json_that_gives_back_its_numbers() {
        byte[] payload = BenchPayload.of(1_234_567, 42, 1_234, 987_654_321L);
        assertThat(payload).hasSize(BenchPayload.SIZE);
        assertThat(new String(payload)).startsWith("{\"i\":\"0001234567\",\"p\":\"0000042\"").endsWith("}");
        assertThat(BenchPayload.index(payload)).isEqualTo(1_234_567);
        assertThat(BenchPayload.partition(payload)).isEqualTo(42);
        assertThat(BenchPayload.place(payload)).isEqualTo(1_234);
        assertThat(BenchPayload.sentNanos(payload)).isEqualTo(987_654_321L);
    }

    @Test
    void the_result_m3_keeps_is_100_bytes_of_json_that_names_its_task() {
        byte[] result = BenchPayload.result(1_234_567);
        assertThat(result).hasSize(BenchPayload.SIZE);
        assertThat(new String(result)).isEqualTo("{\"i\":\"0001234567\",\"state\":\"done\","
                + "\"worker\":\"bench-worker-1\",\"total\":1999,\"note\":\"kept for the owner\"}");
        assertThat(BenchPayload.index(result)).isEqualTo(1_234_567);
        assertThat(BenchPayload.result(1)).isNotEqualTo(BenchPayload.result(2));
    }

    @Test
    void m3_divides_each_memory_delta_of_its_pass_by_the_tasks() {
        RetainedMemory pass = new RetainedMemory(1_000_000, 1_000_000 + 270 * 1_000L, 1_000_000 + 520 * 1_000L,
                1_000);

        assertThat(pass.perCompletedTask()).isEqualTo(520);
        assertThat(pass.perQueuedTask()).isEqualTo(270);
        assertThat(pass.overQueued()).as("completed − queued, same pass").isEqualTo(250);
        assertThat(new RetainedMemory(0, 300, 200, 100).overQueued()).as("a completed task may keep less")
                .isEqualTo(-1);
        assertThatThrownBy(() -> new RetainedMemory(0, 1, 2, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void m3_is_a_row_per_figure_with_ordo_over_bullmq_where_bullmq_ran_it() {
        Results results = new Results(List.of(Contender.ORDO_LETTUCE, Contender.BULLMQ));
        results.add(Contender.ORDO_LETTUCE, samples(Figure.M3_BYTES, 520, 518, 524)
                .add(Figure.M3_EMPTY_BYTES, 330).add(Figure.M3_EMPTY_BYTES, 331).add(Figure.M3_EMPTY_BYTES, 329));
        results.add(Contender.BULLMQ, samples(Figure.M3_BYTES, 1_040, 1_030, 1_050));

        String table = report(results).table();

        assertThat(table).contains("| M3 Redis memory per completed task kept with a 100-byte result (bytes/task) ↓ "
                + "| 520 (518–524) | 1,040 (1,030–1,050) | L 0.50× |");
        assertThat(table).contains("| M3 Redis memory per completed task kept with an empty result (plain ack) "
                + "(bytes/task) ↓ | 330 (329–331) | n/a |  |");
    }

    @Test
    void the_table_shows_median_and_range_per_contender_and_ordo_over_each_peer() {
        Results results = new Results(List.of(Contender.ORDO_LETTUCE, Contender.STREAMS_LETTUCE, Contender.BULLMQ));
        results.add(Contender.ORDO_LETTUCE, samples(Figure.C1_RATE, 60_000, 50_000, 70_000));
        results.add(Contender.STREAMS_LETTUCE, samples(Figure.C1_RATE, 80_000, 75_000, 90_000));
        results.add(Contender.BULLMQ, samples(Figure.C1_RATE, 10_000, 9_000, 11_000));
        results.add(Contender.ORDO_LETTUCE, samples(Figure.C2_RATE, 45_000, 44_000, 46_000));

        String table = report(results).table();

        assertThat(table).contains("| C1 drain (tasks/s) | 60.0k (50.0k–70.0k) | 80.0k (75.0k–90.0k) | "
                + "10.0k (9,000–11.0k) | L 0.75× | L 6.00× |");
        assertThat(table).contains("| C2 ordered drain (tasks/s) | 45.0k (44.0k–46.0k) | n/a | n/a |  |  |");
    }

    @Test
    void the_bar_judges_each_target_on_the_medians_of_the_run() {
        Results results = new Results(List.of(Contender.ORDO_LETTUCE, Contender.STREAMS_LETTUCE, Contender.BULLMQ));
        results.add(Contender.ORDO_LETTUCE, samples(Figure.C1_RATE, 60_000, 50_000, 70_000));
        results.add(Contender.STREAMS_LETTUCE, samples(Figure.C1_RATE, 110_000, 100_000, 120_000));
        results.add(Contender.BULLMQ, samples(Figure.C1_RATE, 10_000, 9_000, 11_000));
        results.add(Contender.ORDO_LETTUCE, samples(Figure.serverCpu(Workload.C1), 11, 10, 13));
        results.add(Contender.ORDO_LETTUCE, samples(Figure.C1W_RATE, 45_000, 44_000, 46_000));
        results.add(Contender.ORDO_LETTUCE, samples(Figure.C2_RATE, 45_000, 44_000, 46_000)
                .add(Figure.C2_VIOLATIONS, 0).add(Figure.C2_VIOLATIONS, 0).add(Figure.C2_VIOLATIONS, 1));
        results.add(Contender.ORDO_LETTUCE, samples(Figure.M1_BYTES, 210, 205, 215));
        results.add(Contender.ORDO_LETTUCE, samples(Figure.serverCpu(Workload.P2), 6, 5, 7));
        results.add(Contender.ORDO_LETTUCE, samples(Figure.serverCpu(Workload.G1), 10.5, 9, 12));
        results.add(Contender.ORDO_LETTUCE, samples(Figure.M2_BYTES, 240, 239, 241));

        Map<String, Bar.Line> lines = new java.util.LinkedHashMap<>();
        Bar.judge(results).forEach(line -> lines.put(line.figure() + " " + line.target(), line));

        assertThat(lines.get("C1 drain ≥ 50,000 tasks/s").met()).contains(true);
        assertThat(lines.get("C1 Redis CPU ≤ 12 µs/task").met()).contains(true);
        assertThat(lines.get("C1 drain ≥ 0.5× Streams Lettuce").met()).contains(true);
        assertThat(lines.get("C1 through the runtime Worker ≥ 0.8× the bare driver's C1").measured())
                .isEqualTo("0.75×");
        assertThat(lines.get("C2 ordered drain ≥ 0.7× C1").measured()).isEqualTo("0.75×");
        assertThat(lines.get("C2 order 0 order violations").met()).as("the worst repetition counts").contains(false);
        assertThat(lines.get("M1 memory ≤ 220 bytes/task").met()).contains(true);
        assertThat(lines.get("P2 publish by 100 ≥ 100,000 tasks/s").met()).isEmpty();
        Bar.Line fanOut = lines.get("G1 Redis CPU, publish to 3 groups ≤ 1.5× P2 Redis CPU");
        assertThat(fanOut.measured()).as("G1.cpu over P2.cpu").isEqualTo("1.75×");
        assertThat(fanOut.met()).contains(false);
        assertThat(lines.get("M2 memory per extra group ≤ 60 bytes/task").met()).contains(false);
    }

    @Test
    void monitor_lines_of_commands_run_by_scripts_are_not_counted_as_sent() {
        assertThat(BenchRedis.isSentCommand("+1700000000.123456 [0 127.0.0.1:5000] \"EVALSHA\" \"abc\"")).isTrue();
        assertThat(BenchRedis.isSentCommand("+1700000000.123456 [0 lua] \"HGET\" \"ordo:{q}:meta\"")).isFalse();
        assertThat(BenchRedis.isSentCommand("+OK")).isFalse();
    }

    private static Measurement samples(Figure figure, double... values) {
        Measurement measurement = new Measurement();
        for (double value : values) {
            measurement.add(figure, value);
        }
        return measurement;
    }

    private static Report report(Results results) {
        return new Report(results, Mode.QUICK, 3, Map.of("cores", "2"), "2026-01-01 00:00:00", 1.0);
    }
}
