package io.ordo.tck.contract;

/**
 * Promises of the contract that a store may keep only in part. A backend's contract test declares the
 * ones its store keeps ({@link StoreCharacteristics}); tests that need one are marked
 * {@link RequiresCharacteristic}. A sharded queue (docs/scaling.md) keeps each of them within a shard
 * only, so it declares none.
 */
public enum StoreCharacteristic {
    /**
     * One order across every partition of the queue. Sharded: consumers take the shards in turn, so
     * partitions on different shards have no order between them.
     */
    QUEUE_WIDE_ORDER("order across partitions (priority, round robin, which partition a consume serves first)"
            + " holds for the whole queue"),
    /**
     * One id space for the queue. Sharded: the same id published again under another partition (the
     * kit's task(id) makes a fresh one each time) may land on another shard and be created.
     */
    QUEUE_WIDE_IDS("an id is unique in the whole queue, whatever its partition"),
    /** One seq for the queue. Sharded: tasks of partitions on different shards are numbered apart. */
    QUEUE_WIDE_SEQ("seq counts the tasks of the whole queue in one sequence"),
    /**
     * One death order for the queue. Sharded: dead letters of the same millisecond on different shards
     * are listed in shard order, as which died first is known only within a shard.
     */
    QUEUE_WIDE_DEATH_ORDER("dead letters of the same millisecond are listed in the order they died across"
            + " the whole queue"),
    /**
     * One in-flight cap and one rate limit for the queue. Sharded: each shard keeps its own (the queue's
     * settings go to every shard), so the queue as a whole may have as many times more in flight.
     */
    QUEUE_WIDE_LIMITS("queueConcurrency and queueRateLimit hold for the whole queue"),
    /**
     * One order of the task lists for the whole queue. Sharded: the tasks in flight and the dead-letter
     * searches go shard by shard, each in its own order (by holder name; oldest first).
     */
    QUEUE_WIDE_LISTING_ORDER("the tasks in flight are listed by holder name, and a dead-letter search oldest"
            + " first, across the whole queue"),
    /**
     * A fetch tells its consumer of the cancellations asked. Sharded: a fetch is an ack on some shards and a
     * consume on others, so only the heartbeat, which reaches every shard, says it.
     */
    CANCEL_ON_FETCH("ackAndConsume names the tasks its consumer holds whose cancellation was asked");

    private final String promise;

    StoreCharacteristic(String promise) {
        this.promise = promise;
    }

    /** What a store with this characteristic promises, as a skipped test reports it. */
    public String promise() {
        return promise;
    }
}
