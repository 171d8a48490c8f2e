package io.ordo.simulation;

import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/** The checker can fail: each deliberately broken store is caught, with a message that replays it. */
class InvariantCheckerTest {

    @ParameterizedTest
    @EnumSource(FaultyTaskStore.Fault.class)
    void a_store_that_breaks_a_promise_at_the_port_is_caught(FaultyTaskStore.Fault fault) {
        String expected = switch (fault) {
            case REDELIVERS_HELD_ORDERED_TASK -> Invariant.NO_DOUBLE_DELIVERY;
            case DROPS_REJECTED_TASK -> Invariant.NO_TASK_LOST;
            case SWAPS_ORDERED_RUN -> Invariant.ORDERED_IN_ORDER;
            case MISCOUNTS_ATTEMPTS -> Invariant.ATTEMPTS;
            case MISREPORTS_DELAYED_STATE -> Invariant.NO_TASK_LOST;
        };
        SimulationFailure failure = firstFailure(clock -> new FaultyTaskStore(new SimpleTaskStore(clock), fault));

        assertThat(failure.invariant()).isEqualTo(expected);
        assertReplayable(failure);
    }

    @ParameterizedTest
    @EnumSource(value = SimpleTaskStore.Quirk.class, names = "REVERSES_NEW_TURNS", mode = EnumSource.Mode.EXCLUDE)
    void a_store_that_breaks_a_rule_inside_is_caught(SimpleTaskStore.Quirk quirk) {
        SimulationFailure failure = firstFailure(clock -> new SimpleTaskStore(clock, quirk));

        switch (quirk) {
            case IGNORES_ORDERED_LOCK -> assertThat(failure.invariant()).isEqualTo(Invariant.ORDERED_EXCLUSIVE);
            case IGNORES_DELAYS -> assertThat(failure.invariant()).isIn(Invariant.DELAYS, Invariant.ORDERED_IN_ORDER,
                    Invariant.PARTITION_KEY_ORDER);
            case IGNORES_PRIORITY -> assertThat(failure.invariant()).isEqualTo(Invariant.PRIORITY);
            case SERVES_MOST_RECENT_FIRST -> assertThat(failure.invariant()).isEqualTo(Invariant.ROUND_ROBIN);
            case RETRY_MOVES_ORDERED_TASK -> assertThat(failure.invariant()).isEqualTo(Invariant.ORDERED_IN_ORDER);
            case REJECT_RETURNS_ONLY_NAMED -> assertThat(failure.invariant()).isEqualTo(Invariant.OUTCOMES);
            case IGNORES_CAPS -> assertThat(failure.invariant()).isEqualTo(Invariant.CONCURRENCY_CAPS);
            case IGNORES_RATE_LIMITS -> assertThat(failure.invariant()).isEqualTo(Invariant.RATE_LIMITS);
            case DROPS_THE_NEWEST_DEAD_LETTERS -> assertThat(failure.invariant()).isIn(Invariant.GONE_STAYS_GONE,
                    Invariant.NO_TASK_LOST, Invariant.DEAD_LETTERS);
            default -> fail("no expectation for " + quirk);
        }
        assertReplayable(failure);
    }

    @ParameterizedTest
    @EnumSource(SimpleSchedules.Fault.class)
    void a_store_that_fires_schedules_wrongly_is_caught(SimpleSchedules.Fault fault) {
        SimulationFailure failure = firstFailure(clock -> new SimpleTaskStore(clock, fault));

        String expected = switch (fault) {
            case FIRES_EARLY -> Invariant.NOT_BEFORE_ITS_TIME;
            case IGNORES_MISFIRE -> Invariant.MISFIRE;
            case FIRES_SLOTS_AGAIN -> Invariant.ONE_TASK_PER_SLOT;
        };
        assertThat(failure.invariant()).as(failure.getMessage()).isEqualTo(expected);
        assertReplayable(failure);
    }

    private static SimulationFailure firstFailure(Function<VirtualClock, TaskStore> stores) {
        for (long seed = 1; seed <= 200; seed++) {
            VirtualClock clock = new VirtualClock();
            try {
                Simulation.run(seed, stores.apply(clock), clock);
            } catch (SimulationFailure failure) {
                return failure;
            }
        }
        throw new AssertionError("no seed in 1..200 caught the fault");
    }

    private static void assertReplayable(SimulationFailure failure) {
        assertThat(failure.getMessage())
                .contains("seed " + failure.seed())
                .contains("step " + failure.step())
                .contains("invariant: " + failure.invariant())
                .contains("-Dordo.simulation.seed=" + failure.seed());
        long traceLines = failure.getMessage().lines().filter(line -> line.matches("\\s+\\d{4} @.*")).count();
        assertThat(traceLines).isBetween(Math.min(1L, failure.step()), (long) SimulationOptions.DEFAULT_TRACE_TAIL);
    }
}
