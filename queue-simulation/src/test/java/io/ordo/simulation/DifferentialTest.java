package io.ordo.simulation;

import io.ordo.ports.VirtualClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DifferentialTest {

    @Test
    void two_stores_that_behave_alike_agree_at_every_step() {
        for (long seed = 1; seed <= 50; seed++) {
            VirtualClock clockA = new VirtualClock();
            VirtualClock clockB = new VirtualClock();

            Trace trace = Differential.compare(seed, new SimpleTaskStore(clockA), clockA, new SimpleTaskStore(clockB),
                    clockB);

            assertThat(trace.lines()).hasSize(Schedule.generate(seed, SimulationOptions.DEFAULT_STEPS, false).steps().size());
        }
    }

    @Test
    void the_two_clocks_must_read_the_same_time() {
        VirtualClock clockA = new VirtualClock();
        VirtualClock clockB = new VirtualClock(VirtualClock.DEFAULT_START_MILLIS + 1);

        assertThatThrownBy(() -> Differential.compare(1, new SimpleTaskStore(clockA), clockA,
                new SimpleTaskStore(clockB), clockB))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must read the same time");
    }

    @Test
    void the_first_differing_step_is_reported_with_both_lines_and_the_seed() {
        DifferentialFailure failure = null;
        for (long seed = 1; seed <= 200 && failure == null; seed++) {
            VirtualClock clockA = new VirtualClock();
            VirtualClock clockB = new VirtualClock();
            try {
                // Allowed by the rules (turns given in the same step are unordered), but observably different.
                Differential.compare(seed, new SimpleTaskStore(clockA), clockA,
                        new SimpleTaskStore(clockB, SimpleTaskStore.Quirk.REVERSES_NEW_TURNS), clockB);
            } catch (DifferentialFailure caught) {
                failure = caught;
            }
        }

        assertThat(failure).as("some seed in 1..200 tells the stores apart").isNotNull();
        assertThat(failure.lineA()).isNotEqualTo(failure.lineB());
        assertThat(failure.lineA()).startsWith(String.format("%04d ", failure.step()));
        assertThat(failure.getMessage())
                .contains("seed " + failure.seed())
                .contains(failure.lineA())
                .contains(failure.lineB())
                .contains("-Dordo.simulation.seed=" + failure.seed());
    }
}
