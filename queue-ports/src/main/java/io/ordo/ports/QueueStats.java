package io.ordo.ports;

/**
 * A queue at one moment.
 *
 * @param ready              tasks due and waiting
 * @param delayed            tasks waiting that are not due yet
 * @param inFlight           tasks held by consumers
 * @param dead               dead letters
 * @param activePartitions   partitions with at least one waiting task
 * @param lockedPartitions   ordered partitions held by a consumer
 * @param blockedPartitions  partitions blocked (rate-limited) right now
 * @param cappedPartitions   partitions with tasks waiting held back by their concurrency cap: as many tasks
 *                           in flight as their cap allows, or more
 * @param throttledPartitions partitions with tasks waiting held back by the partition rate limit: less than
 *                           one token in their bucket now
 * @param liveConsumers      consumers whose heartbeat is fresh
 * @param oldestDueAgeMillis how long the longest-waiting due task has been due (lag); 0 when none
 * @param publishedTotal     tasks created since the queue began
 * @param ackedTotal         tasks acked since the queue began
 * @param deadLetteredTotal  tasks dead-lettered since the queue began
 * @param deadLettersDroppedTotal dead letters the queue's caps deleted since the queue began
 *                           ({@code deadLetterMaxCount}, {@code deadLetterMaxAge}); purges are not counted
 * @param paused             whether consume delivers nothing
 * @param completed          completed tasks kept with their results (while the queue keeps results)
 */
public record QueueStats(long ready, long delayed, long inFlight, long dead, long activePartitions,
                         long lockedPartitions, long blockedPartitions, long cappedPartitions,
                         long throttledPartitions, long liveConsumers, long oldestDueAgeMillis,
                         long publishedTotal, long ackedTotal, long deadLetteredTotal, long deadLettersDroppedTotal,
                         boolean paused, long completed) {

    /** Figures of a queue that keeps no completed task. */
    public QueueStats(long ready, long delayed, long inFlight, long dead, long activePartitions,
                      long lockedPartitions, long blockedPartitions, long cappedPartitions,
                      long throttledPartitions, long liveConsumers, long oldestDueAgeMillis,
                      long publishedTotal, long ackedTotal, long deadLetteredTotal, long deadLettersDroppedTotal,
                      boolean paused) {
        this(ready, delayed, inFlight, dead, activePartitions, lockedPartitions, blockedPartitions, cappedPartitions,
                throttledPartitions, liveConsumers, oldestDueAgeMillis, publishedTotal, ackedTotal, deadLetteredTotal,
                deadLettersDroppedTotal, paused, 0);
    }

    /** Figures of a queue whose caps never deleted a dead letter. */
    public QueueStats(long ready, long delayed, long inFlight, long dead, long activePartitions,
                      long lockedPartitions, long blockedPartitions, long cappedPartitions,
                      long throttledPartitions, long liveConsumers, long oldestDueAgeMillis,
                      long publishedTotal, long ackedTotal, long deadLetteredTotal, boolean paused) {
        this(ready, delayed, inFlight, dead, activePartitions, lockedPartitions, blockedPartitions, cappedPartitions,
                throttledPartitions, liveConsumers, oldestDueAgeMillis, publishedTotal, ackedTotal, deadLetteredTotal,
                0, paused);
    }

    /**
     * Whether these figures show the queue was ever used: something published, held or dead-lettered, a
     * pause, a live consumer. A queue that shows none of it may still exist (configured only): callers
     * that must tell look it up among the backend's queues.
     */
    public boolean showsUse() {
        return publishedTotal > 0 || deadLetteredTotal > 0 || paused
                || ready + delayed + inFlight + dead + liveConsumers > 0;
    }
}
