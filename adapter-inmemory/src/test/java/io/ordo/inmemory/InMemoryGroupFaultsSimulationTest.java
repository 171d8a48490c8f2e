package io.ordo.inmemory;

import io.ordo.domain.GroupName;
import io.ordo.domain.InvalidInputException;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.Task;
import io.ordo.domain.TaskId;
import io.ordo.ports.PublishOutcome;
import io.ordo.ports.PublishReceipt;
import io.ordo.ports.TaskSnapshot;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import io.ordo.simulation.Invariant;
import io.ordo.simulation.Simulation;
import io.ordo.simulation.SimulationFailure;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The simulation's checks of consumer groups can fail: the in-memory store, each time with one of the groups'
 * rules (docs/groups.md) broken at the port, is caught under the expected invariant.
 */
class InMemoryGroupFaultsSimulationTest {
    private static final QueueName QUEUE = QueueName.of("simulation");
    private static final GroupName SECOND = GroupName.of("g1");

    enum Fault {
        /** With two groups or more, a publish's tasks never reach the last group by name. */
        PUBLISH_MISSES_A_GROUP,
        /** A group that does not exist answers calls on its state (empty answers) instead of refusing them. */
        ANSWERS_FOR_A_MISSING_GROUP,
        /** Configuring through a group's store configures the queue's own store, so every view. */
        CONFIGURE_THROUGH_A_GROUP_SETS_THE_QUEUE,
        /** Group g1 numbers its tasks with a seq of its own. */
        SEQ_OF_ITS_OWN
    }

    @ParameterizedTest
    @EnumSource(Fault.class)
    void a_store_that_breaks_a_rule_of_the_groups_is_caught(Fault fault) {
        String expected = switch (fault) {
            case PUBLISH_MISSES_A_GROUP -> Invariant.NO_TASK_LOST;
            case ANSWERS_FOR_A_MISSING_GROUP, CONFIGURE_THROUGH_A_GROUP_SETS_THE_QUEUE -> Invariant.GROUPS;
            case SEQ_OF_ITS_OWN -> Invariant.TASK_FIELDS;
        };

        SimulationFailure failure = firstFailure(fault);

        assertThat(failure.invariant()).as(failure.getMessage()).isEqualTo(expected);
        assertThat(failure.getMessage()).contains("seed " + failure.seed()).contains("-Dordo.simulation.seed=");
    }

    private static SimulationFailure firstFailure(Fault fault) {
        for (long seed = 1; seed <= 300; seed++) {
            VirtualClock clock = new VirtualClock();
            try (InMemoryTaskStoreFactory stores = new InMemoryTaskStoreFactory(clock)) {
                Simulation.run(seed, view -> faulty(stores, view, fault), clock);
            } catch (SimulationFailure failure) {
                return failure;
            }
        }
        throw new AssertionError("no seed in 1..300 caught " + fault);
    }

    private static TaskStore faulty(InMemoryTaskStoreFactory stores, Optional<GroupName> view, Fault fault) {
        TaskStore own = stores.forQueue(QUEUE);
        TaskStore store = view.map(group -> stores.forGroup(QUEUE, group)).orElse(own);
        return (TaskStore) Proxy.newProxyInstance(TaskStore.class.getClassLoader(), new Class<?>[] {TaskStore.class},
                (proxy, method, args) -> {
                    if (fault == Fault.CONFIGURE_THROUGH_A_GROUP_SETS_THE_QUEUE && view.isPresent()
                            && method.getName().equals("configure")) {
                        own.configure((QueueSettings) args[0]);
                        return null;
                    }
                    Object result;
                    try {
                        result = call(store, method, args);
                    } catch (InvalidInputException refused) {
                        if (fault == Fault.ANSWERS_FOR_A_MISSING_GROUP && "group".equals(refused.field())) {
                            return emptyAnswer(method);
                        }
                        throw refused;
                    }
                    if (fault == Fault.PUBLISH_MISSES_A_GROUP && method.getName().equals("publish")) {
                        missLastGroup(stores, own, (List<?>) args[0], (List<?>) result);
                    }
                    if (fault == Fault.SEQ_OF_ITS_OWN && view.equals(Optional.of(SECOND))) {
                        return ownSeq(result);
                    }
                    return result;
                });
    }

    private static Object call(TaskStore store, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(store, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static Object emptyAnswer(Method method) {
        Class<?> type = method.getReturnType();
        if (type == long.class) {
            return 0L;
        }
        if (type == int.class) {
            return 0;
        }
        if (type == boolean.class) {
            return false;
        }
        if (type == List.class) {
            return List.of();
        }
        if (type == java.util.Map.class) {
            return java.util.Map.of();
        }
        return type == Optional.class ? Optional.empty() : null;
    }

    /** The tasks the publish created are taken back out of the last group (cancelled there: they never arrived). */
    private static void missLastGroup(InMemoryTaskStoreFactory stores, TaskStore own, List<?> batch, List<?> receipts) {
        List<GroupName> groups = own.groups();
        if (groups.size() < 2) {
            return;
        }
        List<TaskId> created = receipts.stream().map(PublishReceipt.class::cast)
                .filter(receipt -> receipt.outcome() == PublishOutcome.CREATED).map(PublishReceipt::id).toList();
        if (!created.isEmpty() && batch.stream().allMatch(NewTask.class::isInstance)) {
            stores.forGroup(QUEUE, groups.get(groups.size() - 1)).cancel(created);
        }
    }

    @SuppressWarnings("unchecked")
    private static Object ownSeq(Object result) {
        if (result instanceof Optional<?> found && found.isPresent() && found.get() instanceof TaskSnapshot snapshot) {
            return Optional.of(new TaskSnapshot(withOwnSeq(snapshot.task()), snapshot.state(), snapshot.holder(),
                    snapshot.lease(), snapshot.completion()));
        }
        if (result instanceof List<?> list && !list.isEmpty() && list.get(0) instanceof Lease) {
            return ((List<Lease>) list).stream()
                    .map(lease -> new Lease(withOwnSeq(lease.task()), lease.consumer(), lease.leasedAt())).toList();
        }
        return result;
    }

    private static Task withOwnSeq(Task task) {
        return new Task(task.id(), task.partition(), task.priority(), task.payload(), task.headers(), task.seq() + 1_000,
                task.attempts(), task.publishedAt(), task.dueAt(), task.readyAt(), task.lastError(), task.reclaimCause(),
                task.type(), task.maxAttempts(), task.retryPolicy());
    }
}
