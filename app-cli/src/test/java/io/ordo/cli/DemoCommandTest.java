package io.ordo.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DemoCommandTest {
    private final CliRun run = CliRun.of("demo");

    @Test
    void runs_without_errors() {
        assertThat(run.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(run.err()).isEmpty();
    }

    @Test
    void is_the_same_on_every_run() {
        assertThat(CliRun.of("demo").out()).isEqualTo(run.out());
    }

    @Test
    void stamps_every_step_with_virtual_time() {
        assertThat(run.outLines()).filteredOn(line -> line.startsWith("t+"))
                .hasSizeGreaterThan(20)
                .allMatch(line -> line.matches("t\\+\\d+\\.\\d{3}s +\\S.*"));
        assertThat(run.out()).contains("t+10.000s");
    }

    @Test
    void the_high_priority_task_goes_first() {
        assertThat(linesAfter("worker-a consumes").get(0)).contains("email-urgent", "priority 10");
    }

    @Test
    void the_ordered_batch_is_locked_while_its_holder_lives() {
        assertThat(run.out()).contains("nothing from !account-42: it is locked while worker-a holds its batch");
    }

    @Test
    void a_failing_task_backs_off_then_becomes_a_dead_letter() {
        assertThat(run.outLines()).filteredOn(line -> line.contains("webhook-1 fails"))
                .hasSize(3)
                .satisfiesExactly(
                        first -> assertThat(first).contains("attempt 1 of 3", "retry in 1.000s → returned"),
                        second -> assertThat(second).startsWith("t+1.000s").contains("retry in 2.000s → returned"),
                        third -> assertThat(third).startsWith("t+3.000s").endsWith("→ dead-lettered"));
        assertThat(run.out()).contains("dead letter webhook-1: 3 attempts, died at t+3.000s");
    }

    @Test
    void a_delayed_task_waits_until_it_is_due() {
        assertThat(run.out()).contains("report-1 is delayed until t+5.000s");
        assertThat(run.outLines()).anySatisfy(line -> assertThat(line).startsWith("t+5.000s").contains("report-1 done"));
    }

    @Test
    void the_crashed_workers_tasks_come_back_in_order_with_attempts_kept() {
        assertThat(run.out()).contains("reclaim → dead consumers [worker-a]; 3 returned, 0 dead-lettered");
        List<String> takenOver = linesAfter("t+10.000s  worker-b consumes");
        assertThat(takenOver.subList(0, 3)).satisfiesExactly(
                line -> assertThat(line).contains("acct-1", "attempt 2"),
                line -> assertThat(line).contains("acct-2", "attempt 2"),
                line -> assertThat(line).contains("acct-3", "attempt 2"));
        assertThat(takenOver.get(3)).contains("the same tasks in the same order as worker-a had them");
    }

    @Test
    void ends_with_an_empty_queue_and_one_dead_letter() {
        assertThat(run.out()).contains("ready 0, delayed 0, in flight 0, dead 1, live consumers 1",
                "totals: published 8, acked 7, dead-lettered 1");
    }

    private List<String> linesAfter(String step) {
        List<String> lines = run.outLines();
        int at = 0;
        while (!lines.get(at).contains(step)) {
            at++;
        }
        return lines.subList(at + 1, lines.size());
    }
}
