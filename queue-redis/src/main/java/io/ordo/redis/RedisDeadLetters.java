package io.ordo.redis;

import io.ordo.domain.DeadLetter;
import io.ordo.domain.TaskId;
import io.ordo.ports.DeadLetterPage;
import io.ordo.ports.DeadLetterPageRequest;
import io.ordo.ports.RedriveOutcome;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import static io.ordo.redis.IdCalls.distinct;
import static io.ordo.redis.IdCalls.outcomes;
import static io.ordo.redis.IdCalls.withIds;

/**
 * A Redis queue's dead letters: a page of them, redrive and purge by id or of all of them, and the trim the
 * caps ask for; what runs over all of them runs as calls of a bounded chunk each.
 */
final class RedisDeadLetters {
    /** Calls a function on the store's keys. */
    private final QueueCall onKeys;
    /** The override clock's now, or empty: the scripts then read the server's TIME. */
    private final Supplier<String> now;

    RedisDeadLetters(QueueCall onKeys, Supplier<String> now) {
        this.onKeys = onKeys;
        this.now = now;
    }

    DeadLetterPage page(int offset, int limit) {
        DeadLetterPageRequest asked = new DeadLetterPageRequest(offset, limit);
        List<Object> reply = onKeys.run(RedisScript.DEAD_LETTERS, new Args().add(now.get()).add(asked.offset()).add(asked.limit()));
        List<DeadLetter> page = new ArrayList<>();
        for (int i = 1; i < reply.size(); i += 2) {
            page.add(TaskListReplies.deadLetter(Replies.bytes(reply, i), Replies.bytes(reply, i + 1)));
        }
        return new DeadLetterPage(page, Replies.number(reply, 0), offset);
    }

    Map<TaskId, RedriveOutcome> redrive(Collection<TaskId> ids) {
        List<TaskId> distinct = distinct(ids);
        List<Object> reply = onKeys.run(RedisScript.REDRIVE, withIds(new Args().add(now.get()), distinct));
        return outcomes(distinct, reply, RedisScript.REDRIVE, RedriveOutcome.class);
    }

    long redriveAll() {
        return inChunks(RedisScript.REDRIVE_ALL);
    }

    long purge(Collection<TaskId> ids) {
        List<TaskId> distinct = distinct(ids);
        return Replies.number(onKeys.run(RedisScript.PURGE_DEAD_LETTERS, withIds(new Args().add(now.get()), distinct)), 0);
    }

    long purgeAll() {
        return inChunks(RedisScript.PURGE_ALL_DEAD_LETTERS);
    }

    /**
     * Runs an operation over every dead letter as calls of a bounded chunk each, so none holds the server
     * for long: those that died before the first call, oldest first (reply: how many, the last death the
     * run covers, whether more remain). Other calls may run between chunks; a task that dies meanwhile is
     * not part of the run, and one redriven or purged meanwhile by another call is not counted.
     */
    private long inChunks(RedisScript script) {
        long done = 0;
        String through = "";
        while (true) {
            List<Object> reply = onKeys.run(script, new Args().add(now.get()).add(through));
            done += Replies.number(reply, 0);
            if (Replies.number(reply, 2) == 0) {
                return done;
            }
            through = Long.toString(Replies.number(reply, 1));
        }
    }

    /** Calls trim_dead_letters until the caps delete no more: each call deletes a bounded chunk. */
    long trim() {
        long dropped = 0;
        while (true) {
            List<Object> reply = onKeys.run(RedisScript.TRIM_DEAD_LETTERS, new Args().add(now.get()));
            dropped += Replies.number(reply, 0);
            if (Replies.number(reply, 1) == 0) {
                return dropped;
            }
        }
    }
}
