package io.ordo.ports;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** TaskStore is only the union of its roles, and each operation belongs to exactly one role. */
class TaskStoreRolesTest {
    private static final List<Class<?>> ROLES = List.of(TaskPublishing.class, TaskConsuming.class,
            QueueMaintenance.class, TaskInspection.class, DeadLetterAdmin.class, QueueAdmin.class, QueueSchedules.class,
            ConsumerGroups.class, TaskListing.class, TaskEvents.class);

    @Test
    void task_store_declares_nothing_of_its_own_and_extends_every_role() {
        assertThat(TaskStore.class.getDeclaredMethods()).isEmpty();
        assertThat(TaskStore.class.getDeclaredFields()).isEmpty();
        assertThat(TaskStore.class.getInterfaces()).containsExactlyInAnyOrderElementsOf(ROLES);
    }

    @Test
    void every_operation_is_declared_by_exactly_one_role_or_by_what_they_share() {
        Map<String, List<String>> declaredBy = Arrays.stream(TaskStore.class.getMethods())
                .filter(method -> !Modifier.isStatic(method.getModifiers()))
                .collect(Collectors.groupingBy(TaskStoreRolesTest::signature,
                        Collectors.mapping(method -> method.getDeclaringClass().getSimpleName(), Collectors.toList())));

        assertThat(declaredBy).as("the 25 operations TaskStore had before it was split, the four of schedules,"
                + " the four of consumer groups, the group a store serves, the trim of dead letters, the heartbeat"
                + " with progress and the lease extension of task control, the four task lists, the completion with"
                + " results and their expiry, the list of completed tasks and the event log's read").hasSize(45);
        assertThat(declaredBy).containsEntry("fireDueSchedules()", List.of("QueueMaintenance"))
                .containsEntry("trimDeadLetters()", List.of("QueueMaintenance"))
                .containsEntry("putSchedule(Schedule)", List.of("QueueSchedules"))
                .containsEntry("createGroup(GroupName)", List.of("ConsumerGroups"))
                .containsEntry("createGroup(GroupName, GroupName)", List.of("ConsumerGroups"))
                .containsEntry("heartbeat(ConsumerId, Duration, Map)", List.of("TaskConsuming"))
                .containsEntry("extendLease(ConsumerId, Collection, Duration)", List.of("TaskConsuming"))
                .containsEntry("partitionTasks(Partition, int, int)", List.of("TaskListing"))
                .containsEntry("findDeadLetters(DeadLetterFilter, String, int)", List.of("TaskListing"))
                .containsEntry("events(String, int)", List.of("TaskEvents"))
                .containsEntry("completedTasks(int, int)", List.of("TaskListing"));
        declaredBy.forEach((operation, roles) -> assertThat(roles).as(operation).hasSize(1));
        assertThat(declaredBy.entrySet().stream().filter(entry -> entry.getValue().contains("QueueBound")).map(Map.Entry::getKey))
                .containsExactlyInAnyOrder("queue()", "group()", "settings()");
    }

    private static String signature(Method method) {
        return method.getName() + Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName)
                .collect(Collectors.joining(", ", "(", ")"));
    }
}
