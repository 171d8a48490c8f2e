package io.ordo.redis;

import io.ordo.domain.InvalidInputException;
import io.ordo.domain.NewTask;
import io.ordo.domain.Schedule;
import io.ordo.domain.Validate;
import io.ordo.ports.PublishOutcome;
import io.ordo.ports.QueueSchedules;
import io.ordo.ports.ScheduleEntry;
import io.ordo.ports.ScheduleFiring;
import io.ordo.redis.RedisScript.PublishReply;
import io.ordo.schedules.ScheduleSlots;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A Redis queue's recurring schedules (docs/semantics.md, "Schedules"), kept on the queue's own keys: put,
 * removed, listed, and fired by any number of workers. {@link RedisTaskStore}'s {@link QueueSchedules} role.
 */
final class RedisSchedules {
    private final QueueCall onQueue;
    /** The override clock's now, or empty: the scripts then read the server's TIME. */
    private final Supplier<String> now;

    RedisSchedules(QueueCall onQueue, Supplier<String> now) {
        this.onQueue = onQueue;
        this.now = now;
    }

    boolean put(Schedule schedule) {
        ScheduleSlots.check(Validate.notNull("schedule", schedule));
        Args args = new Args().add(now.get()).add(schedule.id()).add(ScheduleRecords.definition(schedule))
                .add(schedule.start() == null ? "" : Long.toString(schedule.start().toEpochMilli()))
                .add(QueueSchedules.MAX_SCHEDULES);
        long reply = Replies.number(onQueue.run(RedisScript.SCHEDULE_PUT, args), 0);
        if (reply < 0) {
            throw new InvalidInputException("schedule", "a queue keeps at most " + QueueSchedules.MAX_SCHEDULES
                    + " schedules");
        }
        return reply == 1;
    }

    boolean remove(String id) {
        Validate.text("id", id, Schedule.MAX_ID_LENGTH);
        return Replies.number(onQueue.run(RedisScript.SCHEDULE_REMOVE, new Args().add(now.get()).add(id)), 0) == 1;
    }

    List<ScheduleEntry> list() {
        return entries(onQueue.run(RedisScript.SCHEDULES, new Args().add(now.get())));
    }

    private static List<ScheduleEntry> entries(List<Object> reply) {
        List<ScheduleEntry> entries = new ArrayList<>();
        for (int i = 1; i + 1 < reply.size(); i += 2) {
            entries.add(ScheduleRecords.decode(Replies.text(reply, i), Replies.bytes(reply, i + 1)));
        }
        entries.sort(Comparator.comparing(entry -> entry.schedule().id()));
        return entries;
    }

    /** Each schedule's id and the digest of the definition the reply holds, for fire_schedule's check. */
    private static Map<String, String> digests(List<Object> reply) {
        Map<String, String> digests = new HashMap<>();
        for (int i = 1; i + 1 < reply.size(); i += 2) {
            digests.put(Replies.text(reply, i), ScheduleRecords.definitionDigest(Replies.bytes(reply, i + 1)));
        }
        return digests;
    }

    /**
     * Reads the schedules and the server's now, works out each one's due slots in Java, and fires each
     * schedule with one call that publishes its slots and advances its last slot if no other firer did first.
     */
    ScheduleFiring fireDue() {
        List<Object> read = onQueue.run(RedisScript.SCHEDULES, new Args().add(now.get()));
        long serverNow = Replies.number(read, 0);
        Map<String, String> digests = digests(read);
        ScheduleFiring firing = ScheduleFiring.NONE;
        for (ScheduleEntry entry : entries(read)) {
            Optional<ScheduleSlots.Due> due = ScheduleSlots.due(entry.schedule(), entry.anchorMillis(),
                    entry.lastSlotMillis(), serverNow);
            if (due.isEmpty()) {
                continue;
            }
            Args args = new Args().add(now.get()).add(entry.schedule().id()).add(entry.lastSlotMillis())
                    .add(due.get().newLast()).add(digests.get(entry.schedule().id()));
            for (long slot : due.get().slots()) {
                NewTask task = entry.schedule().taskOf(slot);
                args.add(task.id().value()).add(TaskRecords.publishBlob(task));
            }
            List<Object> reply = onQueue.run(RedisScript.FIRE_SCHEDULE, args);
            if (Replies.number(reply, PublishReply.STATUS) != PublishReply.ACCEPTED) {
                continue; // handled by another firer, replaced, or over the queue's payload limit: the slots wait
            }
            int created = 0;
            for (int i = PublishReply.FIRST_OUTCOME; i < reply.size(); i++) {
                if (RedisScript.FIRE_SCHEDULE.outcome(PublishOutcome.class, Replies.number(reply, i))
                        == PublishOutcome.CREATED) {
                    created++;
                }
            }
            firing = firing.plus(ScheduleFiring.ofOne(created, due.get().missed()));
        }
        return firing;
    }
}
