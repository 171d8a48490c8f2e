package io.ordo.simulation;

/** Names of what the checker verifies; a {@link SimulationFailure} names the one that broke. */
public final class Invariant {
    /** Every created task is acked, cancelled, purged, dead, or still in the store with the right state. */
    public static final String NO_TASK_LOST = "no task lost";
    /** A task is never delivered while it is in flight (or dead, or gone). */
    public static final String NO_DOUBLE_DELIVERY = "no task in flight twice";
    /** An ordered partition is never delivered while one of its tasks is in flight. */
    public static final String ORDERED_EXCLUSIVE = "ordered partition held by one consumer at a time";
    /** An ordered partition delivers a consecutive run from its head, in key order, retries first. */
    public static final String ORDERED_IN_ORDER = "ordered partition delivered in order";
    /** A regular partition delivers its lowest-key ready task. */
    public static final String PARTITION_KEY_ORDER = "partition key order";
    /** Across partitions the highest-priority eligible head goes first. */
    public static final String PRIORITY = "priorities across partitions";
    /** Among equal priorities the partition served least recently goes first. */
    public static final String ROUND_ROBIN = "round-robin among equal priorities";
    /** Nothing is delivered before its readyAt. */
    public static final String DELAYS = "delays respected";
    /** A blocked partition or a paused queue delivers nothing. */
    public static final String BLOCKS = "blocks and pause respected";
    /** No partition and no queue has more tasks in flight than its concurrency cap. */
    public static final String CONCURRENCY_CAPS = "never more in flight than the caps";
    /** No delivery without a token of the queue's and of its partition's rate limit. */
    public static final String RATE_LIMITS = "no delivery without a token";
    /** A schedule's slot publishes one task, and a slot is handled once however many firers call. */
    public static final String ONE_TASK_PER_SLOT = "one task per schedule slot";
    /** Missed slots are skipped, run once or caught up as the schedule's misfire policy says. */
    public static final String MISFIRE = "misfire policy respected";
    /** No slot is handled before its instant. */
    public static final String NOT_BEFORE_ITS_TIME = "nothing fired before its time";
    /** Consume takes everything due up to max. */
    public static final String TAKES_WHAT_IS_DUE = "consume takes what is due";
    /** attempts = deliveries minus releases and returns with a batch, reset by redrive. */
    public static final String ATTEMPTS = "attempts counted";
    /** Per-id results of publish, ack, reject, fail, release, cancel, redrive, purge and reclaim. */
    public static final String OUTCOMES = "outcomes as specified";
    /** The stats agree with the tasks. */
    public static final String STATS = "stats";
    /** An acked, cancelled or purged task is not found any more. */
    public static final String GONE_STAYS_GONE = "acked, cancelled, purged and dropped tasks are gone";
    /** Dead letters: exactly the dead tasks, oldest first, with reason and attempts. */
    public static final String DEAD_LETTERS = "dead letters";
    /** The event log's seqs follow one another, and it is never longer than the view's eventLogLength. */
    public static final String EVENT_LOG = "event log numbered and capped";
    /** Leases and snapshots carry the task as published (partition, priority, seq order, times). */
    public static final String TASK_FIELDS = "task fields";
    /**
     * Consumer groups (docs/groups.md): create, list and delete answer as the groups that exist; a group starts
     * with the own view's settings; configure reaches every view from the queue's own store, one group from its
     * store; a call on the state of a group that does not exist is refused naming {@code group}.
     */
    public static final String GROUPS = "consumer groups as specified";
    /** The store threw where the contract expects a value. */
    public static final String NO_EXCEPTION = "store operation completes";
    /** Two stores observed the same at every step. */
    public static final String SAME_BEHAVIOUR = "same behaviour as the other store";

    private Invariant() {
    }
}
