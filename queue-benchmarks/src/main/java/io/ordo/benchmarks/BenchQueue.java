package io.ordo.benchmarks;

import java.time.Duration;
import java.util.List;

/**
 * The small facade every Java contender implements, so each workload is written once and runs the
 * same on Ordo and on raw Streams (as Caffeine's benchmarks put every cache behind one interface).
 * All calls are synchronous: they return once the server has answered.
 */
interface BenchQueue extends AutoCloseable {
    /** A task to publish: the partition is ignored by contenders that have none. */
    record Task(int partition, boolean ordered, byte[] payload) {
    }

    /**
     * A delivered task.
     *
     * @param handle           what the contender needs to ack it
     * @param orderedPartition the partition when it is ordered (its batch must run in order), else null
     */
    record Delivery(Object handle, String orderedPartition, byte[] payload) {
    }

    /** Whether tasks live in partitions (C2, C3 need them). */
    boolean hasPartitions();

    void publish(Task task);

    void publish(List<Task> tasks);

    /** A consumer identity of this queue. */
    Consumer consumer(String name);

    @Override
    void close();

    /** What one {@link Consumer#ackAndFetch} call did: how many of its acks the queue accepted, and the tasks taken. */
    record AckedAndFetched(int acked, List<Delivery> deliveries) {
    }

    /** One consumer: acks finished tasks and fetches the next ones, both in one call. */
    interface Consumer extends AutoCloseable {
        /**
         * Acks {@code acks}, then takes up to {@code max} tasks (0: acks only), waiting up to {@code wait}
         * when none is there. Thread-safe: a worker may have two calls in flight.
         */
        AckedAndFetched ackAndFetch(List<Delivery> acks, int max, Duration wait);

        /** What a live worker sends now and then besides fetching (heartbeat, reaper); nothing for Streams. */
        void keepAlive();

        /** Releases what the consumer opened for itself (a connection for blocking reads). */
        @Override
        default void close() {
        }
    }
}
