package io.ordo.simulation;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.GroupName;
import io.ordo.domain.QueueSettings;
import java.util.List;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

    @Test
    void some_seeds_create_use_and_delete_consumer_groups() {
        long withGroups = LongStream.rangeClosed(1, 200).filter(seed -> hasGroupSteps(Schedule.generate(seed))).count();
        Map<Class<?>, Long> inGroups = LongStream.rangeClosed(1, 50).boxed()
                .flatMap(seed -> Schedule.generate(seed).steps().stream())
                .filter(step -> step instanceof Step.InGroup)
                .collect(Collectors.groupingBy(step -> ((Step.InGroup) step).step().getClass(), Collectors.counting()));

        assertThat(withGroups).as("seeds of 1..200 with group steps").isBetween(20L, 80L);
        assertThat(inGroups.keySet()).contains(Step.Consume.class, Step.Ack.class, Step.Reject.class, Step.Fail.class,
                Step.Release.class, Step.Heartbeat.class, Step.Reclaim.class, Step.Cancel.class, Step.Publish.class,
                Step.CreateGroup.class, Step.Drain.class);
    }

    @Test
    void some_seeds_give_tasks_their_own_timeouts_extend_leases_and_report_progress() {
        long withTaskControl = LongStream.rangeClosed(1, 200).filter(seed -> Schedule.generate(seed).steps().stream()
                .map(step -> step instanceof Step.InGroup in ? in.step() : step)
                .anyMatch(step -> step instanceof Step.ExtendLease || step instanceof Step.ReportProgress
                        || step instanceof Step.Publish publish
                        && publish.tasks().stream().anyMatch(task -> task.timeoutMillis() > 0))).count();

        assertThat(withTaskControl).as("seeds of 1..200 with task control").isBetween(40L, 110L);
    }

    @Test
    void some_seeds_keep_results_and_an_event_log_and_read_the_log() {
        List<QueueSettings> configured = LongStream.rangeClosed(1, 200)
                .mapToObj(seed -> ((Step.Configure) Schedule.generate(seed).steps().get(0)).settings()).toList();
        long readingTheLog = LongStream.rangeClosed(1, 200).filter(seed -> Schedule.generate(seed).steps().stream()
                .map(step -> step instanceof Step.InGroup in ? in.step() : step)
                .anyMatch(step -> step instanceof Step.ReadEvents)).count();

        assertThat(configured.stream().filter(QueueSettings::keepsResults).count()).as("seeds keeping results")
                .isBetween(30L, 90L);
        assertThat(configured.stream().filter(QueueSettings::keepsEvents).count()).as("seeds with a log")
                .isBetween(40L, 110L).isEqualTo(readingTheLog);
    }

    @Test
    void without_groups_a_seed_has_no_group_steps_and_a_seed_without_them_is_as_it_was() {
        for (long seed = 1; seed <= 200; seed++) {
            Schedule without = Schedule.generate(seed, SimulationOptions.DEFAULT_STEPS, false);
            Schedule with = Schedule.generate(seed);

            assertThat(hasGroupSteps(without)).as("seed %d without groups", seed).isFalse();
            if (!hasGroupSteps(with)) {
                assertThat(with.steps()).as("seed %d", seed).isEqualTo(without.steps());
            }
        }
    }

    @Test
    void a_step_in_a_group_goes_through_a_group_that_exists_or_was_deleted() {
        for (long seed = 1; seed <= 200; seed++) {
            Set<GroupName> existing = new HashSet<>();
            Set<GroupName> deleted = new HashSet<>();
            for (Step step : Schedule.generate(seed).steps()) {
                Step call = step instanceof Step.InGroup in ? in.step() : step;
                if (step instanceof Step.InGroup in && !(call instanceof Step.CreateGroup)
                        && !(call instanceof Step.DeleteGroup)) {
                    assertThat(existing.contains(in.group()) || deleted.contains(in.group()))
                            .as("seed %d: %s", seed, step.describe()).isTrue();
                }
                if (call instanceof Step.CreateGroup create) {
                    existing.add(create.group());
                    deleted.remove(create.group());
                } else if (call instanceof Step.DeleteGroup delete && existing.remove(delete.group())) {
                    deleted.add(delete.group());
                }
            }
        }
    }

    @Test
    void only_a_step_made_through_a_store_is_made_in_a_group() {
        GroupName group = GroupName.of("g0");

        assertThat(new Step.InGroup(group, new Step.Reclaim()).describe()).isEqualTo("in g0: reclaim");
        assertThatThrownBy(() -> new Step.InGroup(group, new Step.Advance(1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Step.InGroup(group, new Step.Crash(ConsumerId.of("c0"))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Step.InGroup(group, new Step.InGroup(group, new Step.Reclaim())))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static boolean hasGroupSteps(Schedule schedule) {
        return schedule.steps().stream().anyMatch(step -> step instanceof Step.InGroup
                || step instanceof Step.CreateGroup || step instanceof Step.DeleteGroup);
    }

    private static ConsumerId actor(Step step) {
        if (step instanceof Step.InGroup s) {
            return actor(s.step());
        }
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
        if (step instanceof Step.ExtendLease s) {
            return s.consumer();
        }
        if (step instanceof Step.ReportProgress s) {
            return s.consumer();
        }
        return null;
    }
}
