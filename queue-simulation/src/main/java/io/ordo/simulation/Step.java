package io.ordo.simulation;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.GroupName;
import io.ordo.domain.MisfirePolicy;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueSettings;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One step of a {@link Schedule}. Steps that act on tasks carry a {@link Selector} rather than task
 * ids: the run resolves it against what the consumer holds at that moment, so the step stays
 * meaningful whatever the store did before. A step is made through the queue's own store unless it is
 * wrapped in {@link InGroup}, which makes it through the store of one of the queue's consumer groups.
 */
public sealed interface Step {

    /** A short, stable description (the schedule's own text, before the run resolves selectors). */
    String describe();

    /** Stores the queue's settings; always the first step. */
    record Configure(QueueSettings settings) implements Step {
        @Override
        public String describe() {
            return "configure maxAttempts=" + settings.maxAttempts()
                    + " heartbeatTtl=" + settings.heartbeatTtl().toMillis()
                    + " processingTimeout=" + settings.processingTimeout().toMillis()
                    + " dedupWindow=" + settings.dedupWindow().toMillis()
                    + " partitionCap=" + settings.partitionConcurrency()
                    + " overrides=" + settings.partitionConcurrencyOverrides()
                    + " queueCap=" + settings.queueConcurrency()
                    + " partitionRate=" + settings.partitionRateLimit()
                    + " queueRate=" + settings.queueRateLimit()
                    + (settings.hasDeadLetterCaps() ? " deadLetterMaxCount=" + settings.deadLetterMaxCount()
                    + " deadLetterMaxAge=" + settings.deadLetterMaxAge().toMillis() : "");
        }
    }

    /**
     * One task of a publish batch.
     *
     * @param id          the fresh id to use
     * @param reuseId     when true, the run publishes again an id it has seen instead (a duplicate, or a new
     *                    task under an id that is gone); falls back to {@code id} when it knows none
     * @param reuseChoice picks which known id
     * @param timeoutMillis its own processing timeout; 0: the queue's
     */
    record TaskSpec(String id, Partition partition, int priority, long delayMillis, boolean reuseId,
                    long reuseChoice, long timeoutMillis) {
        String describe() {
            return (reuseId ? "reuse" : id) + "(" + partition + " p" + priority + " +" + delayMillis
                    + (timeoutMillis == 0 ? "" : " timeout=" + timeoutMillis) + ")";
        }
    }

    /** Publishes a batch. */
    record Publish(List<TaskSpec> tasks) implements Step {
        public Publish {
            tasks = List.copyOf(tasks);
        }

        @Override
        public String describe() {
            return "publish " + tasks.stream().map(TaskSpec::describe).collect(Collectors.joining(" "));
        }
    }

    /** Consumes with {@code wait = 0}. */
    record Consume(ConsumerId consumer, int max) implements Step {
        @Override
        public String describe() {
            return "consume " + consumer + " max=" + max;
        }
    }

    /** Acks tasks the consumer holds. */
    record Ack(ConsumerId consumer, Selector selector) implements Step {
        @Override
        public String describe() {
            return "ack " + consumer + " " + selector.describe();
        }
    }

    /** Rejects tasks the consumer holds, due again after {@code delayMillis}, optionally blocking their partitions. */
    record Reject(ConsumerId consumer, Selector selector, long delayMillis, long blockMillis) implements Step {
        @Override
        public String describe() {
            return "reject " + consumer + " " + selector.describe() + " delay=" + delayMillis + " block=" + blockMillis;
        }
    }

    /** Fails tasks the consumer holds (straight to the dead letters). */
    record Fail(ConsumerId consumer, Selector selector) implements Step {
        @Override
        public String describe() {
            return "fail " + consumer + " " + selector.describe();
        }
    }

    /** Releases tasks the consumer holds (returned unprocessed, attempt not counted). */
    record Release(ConsumerId consumer, Selector selector) implements Step {
        @Override
        public String describe() {
            return "release " + consumer + " " + selector.describe();
        }
    }

    /** Refreshes a consumer's registration. */
    record Heartbeat(ConsumerId consumer, long ttlMillis) implements Step {
        @Override
        public String describe() {
            return "heartbeat " + consumer + " ttl=" + ttlMillis;
        }
    }

    /** Extends the leases of tasks the consumer names (docs/task-control.md). */
    record ExtendLease(ConsumerId consumer, Selector selector, long extensionMillis) implements Step {
        @Override
        public String describe() {
            return "extend " + consumer + " " + selector.describe() + " by " + extensionMillis;
        }
    }

    /** A heartbeat carrying progress for tasks the consumer names. */
    record ReportProgress(ConsumerId consumer, long ttlMillis, Selector selector, int percent) implements Step {
        @Override
        public String describe() {
            return "progress " + consumer + " ttl=" + ttlMillis + " " + selector.describe() + " " + percent + "%";
        }
    }

    /** Reads the view's whole event log (docs/task-control.md, "Event log"). */
    record ReadEvents() implements Step {
        @Override
        public String describe() {
            return "read events";
        }
    }

    /** Runs the reaper: reclaim, then the trim of the dead letters past the caps. */
    record Reclaim() implements Step {
        @Override
        public String describe() {
            return "reclaim";
        }
    }

    /** Moves the virtual clock forward. */
    record Advance(long millis) implements Step {
        @Override
        public String describe() {
            return "advance " + millis;
        }
    }

    /** The consumer stops: no heartbeats, no calls, until revived. No store call. */
    record Crash(ConsumerId consumer) implements Step {
        @Override
        public String describe() {
            return "crash " + consumer;
        }
    }

    /**
     * The consumer comes back under the same name: as a stalled process that remembers what it held
     * (its later acks may find the leases lost), or as a restarted one that forgot.
     */
    record Revive(ConsumerId consumer, boolean forgetsHeld) implements Step {
        @Override
        public String describe() {
            return "revive " + consumer + (forgetsHeld ? " (restarted)" : " (stalled)");
        }
    }

    /** Cancels ids chosen among every id published so far. */
    record Cancel(int count, long choice) implements Step {
        @Override
        public String describe() {
            return "cancel " + count;
        }
    }

    /** Blocks a partition (rate limit). */
    record Block(Partition partition, long millis) implements Step {
        @Override
        public String describe() {
            return "block " + partition + " " + millis;
        }
    }

    /** Lifts a block. */
    record Unblock(Partition partition) implements Step {
        @Override
        public String describe() {
            return "unblock " + partition;
        }
    }

    /** Pauses the queue. */
    record Pause() implements Step {
        @Override
        public String describe() {
            return "pause";
        }
    }

    /** Resumes the queue. */
    record Resume() implements Step {
        @Override
        public String describe() {
            return "resume";
        }
    }

    /** Lists the dead letters and redrives some of them (and sometimes an id that is not dead). */
    record Redrive(int count, long choice) implements Step {
        @Override
        public String describe() {
            return "redrive " + count;
        }
    }

    /** Redrives every dead letter. */
    record RedriveAll() implements Step {
        @Override
        public String describe() {
            return "redrive all";
        }
    }

    /** Lists the dead letters and purges some of them. */
    record Purge(int count, long choice) implements Step {
        @Override
        public String describe() {
            return "purge " + count;
        }
    }

    /** Purges every dead letter. */
    record PurgeAll() implements Step {
        @Override
        public String describe() {
            return "purge all";
        }
    }

    /**
     * A schedule to put, with its window relative to the moment the step runs (the run resolves it, as it
     * resolves selectors, so the step reads the same whatever the clock's start).
     *
     * @param cron              a five-field cron expression, or null for an interval
     * @param zone              the cron expression's zone (null with an interval)
     * @param everyMillis       the interval (0 with a cron expression)
     * @param startOffsetMillis the start relative to now, or null for none
     * @param endOffsetMillis   the end relative to now, or null for none
     * @param version           goes into the payload, so a replaced template is told from the one before
     */
    record ScheduleSpec(String id, String cron, String zone, long everyMillis, Partition partition, int priority,
                        MisfirePolicy misfire, Long startOffsetMillis, Long endOffsetMillis, int version) {

        /** The schedule this spec puts at {@code now}. */
        io.ordo.domain.Schedule resolve(long now) {
            byte[] payload = (id + " v" + version).getBytes(StandardCharsets.UTF_8);
            io.ordo.domain.Schedule.Builder builder = io.ordo.domain.Schedule.builder(id, partition, payload)
                    .priority(priority).misfire(misfire);
            if (cron != null) {
                builder.cron(cron, ZoneId.of(zone));
            } else {
                builder.every(Duration.ofMillis(everyMillis));
            }
            if (startOffsetMillis != null) {
                builder.start(Instant.ofEpochMilli(now + startOffsetMillis));
            }
            if (endOffsetMillis != null) {
                builder.end(Instant.ofEpochMilli(now + endOffsetMillis));
            }
            return builder.build();
        }

        String describe() {
            return id + (cron != null ? " cron='" + cron + "' " + zone : " every=" + everyMillis) + " -> "
                    + partition + " p" + priority + " misfire=" + misfire
                    + (startOffsetMillis != null ? " start=" + signed(startOffsetMillis) : "")
                    + (endOffsetMillis != null ? " end=" + signed(endOffsetMillis) : "") + " v" + version;
        }

        private static String signed(long offset) {
            return (offset >= 0 ? "+" : "") + offset;
        }
    }

    /** Creates or replaces a schedule. */
    record PutSchedule(ScheduleSpec spec) implements Step {
        @Override
        public String describe() {
            return "put schedule " + spec.describe();
        }
    }

    /** Deletes a schedule (which may not exist). */
    record RemoveSchedule(String id) implements Step {
        @Override
        public String describe() {
            return "remove schedule " + id;
        }
    }

    /**
     * Moves the clock by {@code advanceMillis} (possibly 0), then {@code firers} workers fire the due
     * schedules one after the other, as several reapers would in one tick.
     */
    record FireSchedules(int firers, long advanceMillis) implements Step {
        @Override
        public String describe() {
            return "fire schedules x" + firers + " after advance " + advanceMillis;
        }
    }

    /** Creates a consumer group of the queue (docs/groups.md); answers false when it exists. */
    record CreateGroup(GroupName group) implements Step {
        @Override
        public String describe() {
            return "create group " + group;
        }
    }

    /** Deletes a consumer group with everything it holds; answers false when there is none. */
    record DeleteGroup(GroupName group) implements Step {
        @Override
        public String describe() {
            return "delete group " + group;
        }
    }

    /**
     * A step made through the store of consumer group {@code group} ({@code forGroup}) instead of the queue's
     * own store. A worker's or an operator's call then acts on the group's view, and is refused naming
     * {@code group} while the group does not exist; publishing, the schedules and the groups' administration
     * are the queue's through any store; configure sets the group alone. Steps without a store call (advance,
     * crash, revive) are never in a group.
     */
    record InGroup(GroupName group, Step step) implements Step {
        public InGroup {
            if (step instanceof InGroup || step instanceof Advance || step instanceof Crash || step instanceof Revive) {
                throw new IllegalArgumentException("not a step made through a store: " + step.describe());
            }
        }

        @Override
        public String describe() {
            return "in " + group + ": " + step.describe();
        }
    }

    /**
     * The last step: the consumer consumes and acks until nothing is left, proving every task that
     * is not dead can still be delivered.
     */
    record Drain(ConsumerId consumer) implements Step {
        @Override
        public String describe() {
            return "drain " + consumer;
        }
    }
}
