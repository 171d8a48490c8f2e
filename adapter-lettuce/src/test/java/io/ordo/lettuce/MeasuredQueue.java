package io.ordo.lettuce;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.TaskId;
import io.ordo.ports.TaskStore;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The queue the server-cost measurements fill and drain: {@code ordo.measure.partitions} partitions (1,000),
 * ordered with {@code ordo.measure.ordered}, the harness's ~100-byte JSON payload, random UUID ids.
 */
final class MeasuredQueue {
    static final int PARTITIONS = Integer.getInteger("ordo.measure.partitions", 1000);
    static final boolean ORDERED = Boolean.getBoolean("ordo.measure.ordered");
    static final byte[] PAYLOAD = ("{\"i\":123456,\"p\":123,\"n\":12345,\"t\":1733000000000000000,"
            + "\"pad\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}").getBytes(StandardCharsets.UTF_8);
    static final ConsumerId WORKER = ConsumerId.of("bench-worker-1");

    private MeasuredQueue() {
    }

    /** "regular" or "ordered", for the printed figures. */
    static String kind() {
        return ORDERED ? "ordered" : "regular";
    }

    /** Publishes {@code tasks} tasks round robin over the partitions, {@code batch} per call. */
    static void fill(TaskStore store, int tasks, int batch) {
        List<NewTask> pending = new ArrayList<>(batch);
        for (int i = 0; i < tasks; i++) {
            String code = "p-" + (i % PARTITIONS);
            pending.add(NewTask.builder(ORDERED ? Partition.ordered(code) : Partition.regular(code), PAYLOAD).build());
            if (pending.size() == batch) {
                store.publish(pending);
                pending.clear();
            }
        }
        if (!pending.isEmpty()) {
            store.publish(pending);
        }
    }

    /** Takes {@code tasks} tasks, {@code batch} per call, each call acking what the one before took. */
    static void drainAckingOnConsume(TaskStore store, int tasks, int batch) {
        List<TaskId> acks = List.of();
        int taken = 0;
        while (taken < tasks) {
            List<Lease> leases = store.ackAndConsume(WORKER, acks, batch, Duration.ZERO).taken();
            taken += leases.size();
            acks = leases.stream().map(Lease::id).toList();
        }
        store.ack(WORKER, acks);
    }
}
