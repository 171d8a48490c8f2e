package io.ordo.benchmarks;

import io.micrometer.core.instrument.MeterRegistry;
import io.ordo.domain.ConsumerId;
import io.ordo.domain.GroupName;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.TaskId;
import io.ordo.ports.AckOutcome;
import io.ordo.ports.AckedAndTaken;
import io.ordo.ports.Clock;
import io.ordo.ports.QueueStats;
import io.ordo.ports.TaskConsuming;
import io.ordo.ports.TaskSnapshot;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.runtime.Workers;
import io.ordo.runtime.codec.JacksonPayloadCodec;
import io.ordo.runtime.worker.Scheduler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.random.RandomGenerator;

/** An Ordo queue through the store port, on whichever backend made the factory. */
final class OrdoQueue implements BenchQueue {
    static final QueueName QUEUE = QueueName.of("bench");
    /** The worker runtime's default: heartbeat and reaper each run every third of the heartbeat TTL. */
    static final Duration KEEP_ALIVE_INTERVAL = QueueSettings.DEFAULT_HEARTBEAT_TTL.dividedBy(3);

    private final TaskStoreFactory factory;
    private final TaskStore store;
    private final Partition[] regular = new Partition[1_000_001]; // up to C3's million
    private final Partition[] ordered = new Partition[Mode.Sizes.PARTITIONS + 1];

    OrdoQueue(TaskStoreFactory factory) {
        this.factory = factory;
        this.store = factory.forQueue(QUEUE);
    }

    @Override
    public boolean hasPartitions() {
        return true;
    }

    @Override
    public void publish(Task task) {
        store.publish(List.of(newTask(task)));
    }

    @Override
    public void publish(List<Task> tasks) {
        List<NewTask> batch = new ArrayList<>(tasks.size());
        for (Task task : tasks) {
            batch.add(newTask(task));
        }
        store.publish(batch);
    }

    /** A task with the id a caller gets by default (a random UUID). */
    private NewTask newTask(Task task) {
        return NewTask.builder(partition(task.partition(), task.ordered()), task.payload()).build();
    }

    /** Partition values are cached for the common counts, as a caller would keep them. */
    private Partition partition(int number, boolean isOrdered) {
        Partition[] cache = isOrdered ? ordered : regular;
        if (number < cache.length) {
            Partition known = cache[number];
            if (known == null) {
                known = make(number, isOrdered);
                cache[number] = known;
            }
            return known;
        }
        return make(number, isOrdered);
    }

    private static Partition make(int number, boolean isOrdered) {
        String name = "p-" + number;
        return isOrdered ? Partition.ordered(name) : Partition.regular(name);
    }

    @Override
    public Consumer consumer(String name) {
        ConsumerId id = ConsumerId.of(name);
        return new Consumer() {
            @Override
            public AckedAndFetched ackAndFetch(List<Delivery> acks, int max, Duration wait) {
                List<TaskId> ids = new ArrayList<>(acks.size());
                acks.forEach(delivery -> ids.add((TaskId) delivery.handle()));
                AckedAndTaken answer = store.ackAndConsume(id, ids, max, wait);
                int acked = (int) answer.acks().values().stream().filter(AckOutcome.ACKED::equals).count();
                List<Delivery> deliveries = new ArrayList<>(answer.taken().size());
                for (Lease lease : answer.taken()) {
                    Partition partition = lease.partition();
                    deliveries.add(new Delivery(lease.id(), partition.isOrdered() ? partition.code() : null,
                            lease.task().payload()));
                }
                return new AckedAndFetched(acked, deliveries);
            }

            @Override
            public void keepAlive() {
                store.heartbeat(id, QueueSettings.DEFAULT_HEARTBEAT_TTL);
                store.reclaim();
            }
        };
    }

    /**
     * Gives the queue {@code count} consumer groups ({@code g-1}, {@code g-2}…): from now on each publish
     * delivers every task to each of them, and the queue's own view receives nothing (docs/groups.md).
     */
    List<GroupName> createGroups(int count) {
        List<GroupName> groups = new ArrayList<>(count);
        for (int i = 1; i <= count; i++) {
            GroupName group = GroupName.of("g-" + i);
            if (!store.createGroup(group)) {
                throw new IllegalStateException("group " + group + " of queue " + QUEUE + " existed already");
            }
            groups.add(group);
        }
        return groups;
    }

    /** One group's counts. */
    QueueStats stats(GroupName group) {
        return factory.forGroup(QUEUE, group).stats();
    }

    /** The counts of the queue's own view. */
    QueueStats stats() {
        return store.stats();
    }

    /** From now on an ack keeps the task as completed for {@code retention}, with its result (docs/task-control.md). */
    void keepResults(Duration retention) {
        store.configure(QueueSettings.builder().resultRetention(retention).build());
    }

    /**
     * What {@link #completeAll} did: the acks the queue accepted, and the last task completed with its payload, for
     * a look at what it kept.
     */
    record Completed(long acked, TaskId last, byte[] lastPayload) {
    }

    /**
     * Takes every task there is as one consumer, {@value TaskConsuming#MAX_CONSUME} per call, and acks each batch:
     * with {@code resultOf} through {@code complete}, each task with the result it makes of the payload; without,
     * with plain acks riding on the next fetch, as a worker acks a plain success.
     *
     * @param resultOf the result of a task from its payload, or null for plain acks (an empty result kept)
     */
    Completed completeAll(String consumerName, UnaryOperator<byte[]> resultOf) {
        ConsumerId consumer = ConsumerId.of(consumerName);
        long acked = 0;
        Lease last = null;
        List<TaskId> acks = List.of();
        while (true) {
            List<Lease> taken;
            if (resultOf == null) {
                AckedAndTaken answer = store.ackAndConsume(consumer, acks, TaskConsuming.MAX_CONSUME, Duration.ZERO);
                acked += accepted(answer.acks().values());
                taken = answer.taken();
            } else {
                taken = store.consume(consumer, TaskConsuming.MAX_CONSUME, Duration.ZERO);
                Map<TaskId, byte[]> results = new LinkedHashMap<>(taken.size() * 2);
                taken.forEach(lease -> results.put(lease.id(), resultOf.apply(lease.task().payload())));
                acked += results.isEmpty() ? 0 : accepted(store.complete(consumer, results).values());
            }
            if (taken.isEmpty()) {
                return new Completed(acked, last == null ? null : last.id(), last == null ? null
                        : last.task().payload());
            }
            last = taken.get(taken.size() - 1);
            acks = taken.stream().map(Lease::id).toList();
        }
    }

    private static long accepted(Collection<AckOutcome> outcomes) {
        return outcomes.stream().filter(AckOutcome.ACKED::equals).count();
    }

    /** A task as {@code get} shows it. */
    Optional<TaskSnapshot> get(TaskId id) {
        return store.get(id);
    }

    /** The worker runtime's factory of workers on this queue's backend, wired as its {@code RuntimeModule} does. */
    Workers workers(MeterRegistry registry, Scheduler scheduler) {
        return new Workers(factory, new JacksonPayloadCodec(), Clock.system(), RandomGenerator.getDefault(), scheduler,
                registry);
    }

    @Override
    public void close() {
        factory.close();
    }
}
