package io.ordo.simulation;

import io.ordo.ports.VirtualClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SimulationTest {

    @Test
    void a_store_that_keeps_the_rules_passes_many_seeds() {
        for (long seed = 1; seed <= 300; seed++) {
            VirtualClock clock = new VirtualClock();
            Simulation.run(seed, new SimpleTaskStore(clock), clock);
        }
    }

    @Test
    void the_same_seed_gives_the_same_trace_on_fresh_stores() {
        VirtualClock first = new VirtualClock();
        VirtualClock second = new VirtualClock();

        Trace a = Simulation.run(99, new SimpleTaskStore(first), first);
        Trace b = Simulation.run(99, new SimpleTaskStore(second), second);

        assertThat(a.lines()).isEqualTo(b.lines());
        assertThat(a.lines()).hasSize(Schedule.generate(99, SimulationOptions.DEFAULT_STEPS, false).steps().size());
    }

    @Test
    void traces_show_deliveries_with_attempts_and_outcomes() {
        VirtualClock clock = new VirtualClock();

        Trace trace = Simulation.run(3, new SimpleTaskStore(clock), clock);

        assertThat(trace.lines()).anySatisfy(line -> assertThat(line).matches(".* consume c\\d max=\\d -> t\\d+\\(.*\\)#\\d.*"));
        assertThat(trace.lines()).anySatisfy(line -> assertThat(line).contains("=ACKED"));
        assertThat(trace.lines()).allSatisfy(line -> assertThat(line).contains(" | r="));
        assertThat(trace.lines()).as("the drain ends the schedule (then, in seeds with an event log, its reads)")
                .filteredOn(line -> !line.contains(" read events -> ")).last().asString().contains("drain c0 -> delivered");
    }

    @Test
    void a_store_that_is_not_empty_is_refused() {
        VirtualClock clock = new VirtualClock();
        SimpleTaskStore store = new SimpleTaskStore(clock);
        Simulation.run(1, store, clock, SimulationOptions.builder().steps(20).build());

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Simulation.run(1, store, clock))
                .isInstanceOf(SimulationFailure.class)
                .hasMessageContaining("fresh, empty queue");
    }

    @Test
    void seeds_come_from_system_properties() {
        assertThat(Seeds.fromSystemProperties(3)).containsExactly(1, 2, 3);
        System.setProperty(Seeds.SEED, "1234");
        try {
            assertThat(Seeds.fromSystemProperties(3)).containsExactly(1234);
        } finally {
            System.clearProperty(Seeds.SEED);
        }
        System.setProperty(Seeds.COUNT, "5");
        try {
            assertThat(Seeds.fromSystemProperties(3)).containsExactly(1, 2, 3, 4, 5);
        } finally {
            System.clearProperty(Seeds.COUNT);
        }
    }
}
