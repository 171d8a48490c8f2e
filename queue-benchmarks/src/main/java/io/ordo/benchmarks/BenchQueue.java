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

    /** One consumer: fetches with a prefetch and acks each task. */
    interface Consumer extends AutoCloseable {
        /** Up to {@code max} tasks, waiting up to {@code wait} when none is there. */
        List<Delivery> fetch(int max, Duration wait);

        /** Acks one task; false when the queue says this consumer did not hold it. */
        boolean ack(Delivery delivery);

        /** Acks several tasks in one call; how many the queue accepted. */
        int ackAll(List<Delivery> deliveries);

        /** What a live worker sends now and then besides fetching (heartbeat, reaper); nothing for Streams. */
        void keepAlive();

        /** Releases what the consumer opened for itself (a connection for blocking reads). */
        @Override
        default void close() {
        }
    }
}
