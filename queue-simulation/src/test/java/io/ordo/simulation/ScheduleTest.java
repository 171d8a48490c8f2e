package io.ordo.simulation;

import io.ordo.domain.ConsumerId;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

class ScheduleTest {

    @Test
    void the_same_seed_gives_the_same_schedule() {
        assertThat(Schedule.generate(1234).describe()).isEqualTo(Schedule.generate(1234).describe());
        assertThat(Schedule.generate(1234).steps()).isEqualTo(Schedule.generate(1234).steps());
    }

    @Test
    void different_seeds_give_different_schedules() {
        assertThat(Schedule.generate(1).describe()).isNotEqualTo(Schedule.generate(2).describe());
    }

    @Test
    void a_schedule_configures_first_and_ends_with_a_drain_after_everything_is_due() {
        Schedule schedule = Schedule.generate(7, 150);

        assertThat(schedule.steps().get(0)).isInstanceOf(Step.Configure.class);
        assertThat(schedule.steps().get(schedule.steps().size() - 1)).isInstanceOf(Step.Drain.class);
        assertThat(schedule.steps()).contains(new Step.Advance(Schedule.DRAIN_ADVANCE_MILLIS));
        assertThat(schedule.steps().size()).isGreaterThan(150);
    }

    @Test
    void schedules_exercise_every_kind_of_step_across_seeds() {
        Map<Class<?>, Long> kinds = LongStream.rangeClosed(1, 50).boxed()
                .flatMap(seed -> Schedule.generate(seed).steps().stream())
                .collect(Collectors.groupingBy(Object::getClass, Collectors.counting()));

        assertThat(kinds.keySet()).containsAll(Arrays.asList(Step.class.getPermittedSubclasses()));
    }

    @Test
    void crashed_consumers_make_no_calls_until_revived() {
        for (long seed = 1; seed <= 100; seed++) {
            Set<ConsumerId> down = new HashSet<>();
            for (Step step : Schedule.generate(seed).steps()) {
                if (step instanceof Step.Crash crash) {
                    down.add(crash.consumer());
                } else if (step instanceof Step.Revive revive) {
                    down.remove(revive.consumer());
                } else {
                    ConsumerId actor = actor(step);
                    assertThat(actor == null || !down.contains(actor)).as("seed %d: %s", seed, step.describe()).isTrue();
                }
            }
        }
    }

    private static ConsumerId actor(Step step) {
        if (step instanceof Step.Consume s) {
            return s.consumer();
        }
        if (step instanceof Step.Ack s) {
            return s.consumer();
        }
        if (step instanceof Step.Reject s) {
            return s.consumer();
        }
        if (step instanceof Step.Fail s) {
            return s.consumer();
        }
        if (step instanceof Step.Release s) {
            return s.consumer();
        }
        if (step instanceof Step.Heartbeat s) {
            return s.consumer();
        }
        return null;
    }
}
