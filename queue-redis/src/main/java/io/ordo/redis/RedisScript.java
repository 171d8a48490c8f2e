package io.ordo.redis;

import io.ordo.ports.AckOutcome;
import io.ordo.ports.CancelOutcome;
import io.ordo.ports.ExtendOutcome;
import io.ordo.ports.FailOutcome;
import io.ordo.ports.PublishOutcome;
import io.ordo.ports.QueueDataException;
import io.ordo.ports.RedriveOutcome;
import io.ordo.ports.RejectOutcome;
import io.ordo.ports.ReleaseOutcome;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The store's operations on the server, one function each of the Redis Functions library
 * ({@link RedisLibrary}). Each is a resource {@code /io/ordo/redis/scripts/<name>.lua}: a first line
 * {@code #!lua} with the function's flags ({@code flags=allow-oom}, {@code flags=no-writes}), then the
 * function's body, which reads {@code KEYS} and {@code ARGV} as a script would.
 */
public enum RedisScript {
    /** Reply: {@link PublishReply}; per task the code of its {@link PublishOutcome}. */
    PUBLISH("publish", PublishOutcome.DUPLICATE, PublishOutcome.CREATED),
    /** Reply: {@link ConsumeReply}. */
    CONSUME("consume"),
    /** Reply: per id the code of its {@link AckOutcome}. */
    ACK("ack", AckOutcome.LEASE_LOST, AckOutcome.ACKED),
    /** Reply: as {@link #ACK}'s, or {-1, index, size, limit} when a result is over the queue's limit. */
    COMPLETE("complete", AckOutcome.LEASE_LOST, AckOutcome.ACKED),
    /** Reply: {deleted, 1 when more may be due}: called until none is. */
    EXPIRE_COMPLETED("expire_completed"),
    /**
     * Reply: {@link ConsumeReply}, with after the server's now the number n of cancellations asked, its acks'
     * {@link AckOutcome} codes and the n ids of the tasks held whose cancellation was asked, before the tasks taken.
     */
    ACK_CONSUME("ack_consume", AckOutcome.LEASE_LOST, AckOutcome.ACKED),
    /** Reply: per id, then per task returned with its batch (id, code), the code of its {@link RejectOutcome}. */
    REJECT("reject", RejectOutcome.LEASE_LOST, RejectOutcome.RETURNED, RejectOutcome.DEAD_LETTERED,
            RejectOutcome.RETURNED_WITH_BATCH, RejectOutcome.CANCELLED),
    /** Reply: per id the code of its {@link FailOutcome}. */
    FAIL("fail", FailOutcome.LEASE_LOST, FailOutcome.DEAD_LETTERED, FailOutcome.CANCELLED),
    /** Reply: as {@link #REJECT}'s, with {@link ReleaseOutcome} codes. */
    RELEASE("release", ReleaseOutcome.LEASE_LOST, ReleaseOutcome.RELEASED, ReleaseOutcome.CANCELLED),
    BLOCK_PARTITION("block_partition"),
    UNBLOCK_PARTITION("unblock_partition"),
    /** Reply: the ids of the tasks the consumer holds whose cancellation was asked. */
    HEARTBEAT("heartbeat"),
    /** Reply: per id the code of its {@link ExtendOutcome}. */
    EXTEND_LEASE("extend_lease", ExtendOutcome.LEASE_LOST, ExtendOutcome.EXTENDED, ExtendOutcome.CANCEL_REQUESTED),
    /** Reply: {@link ReclaimReply}. */
    RECLAIM("reclaim"),
    /** Reply: per id the code of its {@link CancelOutcome}. */
    CANCEL("cancel", CancelOutcome.UNKNOWN, CancelOutcome.CANCELLED, CancelOutcome.CANCEL_REQUESTED),
    /** Reply: {@link GetReply}. */
    GET("get"),
    DEAD_LETTERS("dead_letters"),
    /** Reply: per id the code of its {@link RedriveOutcome}. */
    REDRIVE("redrive", RedriveOutcome.UNKNOWN, RedriveOutcome.REDRIVEN),
    REDRIVE_ALL("redrive_all"),
    PURGE_DEAD_LETTERS("purge_dead_letters"),
    PURGE_ALL_DEAD_LETTERS("purge_all_dead_letters"),
    /** Reply: {how many dead letters the caps deleted, 1 if they may delete more}: called until 0. */
    TRIM_DEAD_LETTERS("trim_dead_letters"),
    STATS("stats"),
    INSPECT("inspect"),
    PAUSE("pause"),
    RESUME("resume"),
    SETTINGS("settings"),
    CONFIGURE("configure"),
    WAKE("wake"),
    /** Reply: 1 created, 0 replaced, -1 refused (the queue keeps the most schedules it may). */
    SCHEDULE_PUT("schedule_put"),
    SCHEDULE_REMOVE("schedule_remove"),
    /** Reply: {now, id, record...}. */
    SCHEDULES("schedules"),
    /**
     * Reply: {@link PublishReply}, or {2} when the schedule's last slot moved on. Its body runs after
     * {@code publish_tasks}, publish's body as a function ({@link RedisLibrary}).
     */
    FIRE_SCHEDULE("fire_schedule", PublishOutcome.DUPLICATE, PublishOutcome.CREATED),
    /** Reply: 1 created, 0 it exists, -1 the queue has the most groups it may, -2 a deletion of it is unfinished. */
    GROUP_CREATE("group_create"),
    /** Reply: {cursor}: called until the cursor is "0". */
    GROUP_COPY("group_copy"),
    /** Reply: the group names. */
    GROUPS("groups"),
    /** Reply: {1 when the group was listed, 1 when none of its keys is left}: called until done. */
    GROUP_DELETE("group_delete"),
    /** Reply: {@link PartitionTasksReply}. */
    PARTITION_TASKS("partition_tasks"),
    /** Reply: {now, total, id and record of each}. */
    DELAYED_TASKS("delayed_tasks"),
    /** Reply: {@link InFlightReply}. */
    IN_FLIGHT_TASKS("in_flight_tasks"),
    /** Reply: {now, examined, death number to go on after ('' when none is left), id and record of each match}. */
    FIND_DEAD_LETTERS("find_dead_letters"),
    /** Reply: {latest seq, oldest seq kept, the events read} ({@link EventLogRecords}). */
    TASK_EVENTS("task_events"),
    /** Reply: {@link CompletedTasksReply}. */
    COMPLETED_TASKS("completed_tasks");

    /** publish's reply: {ACCEPTED, outcome code per task} or {OVER_LIMIT, task index, payload size, limit}. */
    static final class PublishReply {
        static final int STATUS = 0;
        static final long ACCEPTED = 0;
        static final int FIRST_OUTCOME = 1;
        static final int TASK_INDEX = 1;
        static final int PAYLOAD_SIZE = 2;
        static final int LIMIT = 3;

        private PublishReply() {
        }
    }

    /** consume's reply: {ms until something may fall due, the server's now, [ack codes,] id and record per task}. */
    static final class ConsumeReply {
        static final int UNTIL_DUE = 0;
        static final int NOW = 1;
        static final int FIRST_AFTER_NOW = 2;
        /** UNTIL_DUE when tasks that fell due are still being made ready: call again at once. */
        static final long PROMOTING = -2;

        private ConsumeReply() {
        }
    }

    /** get's reply: {now} (no such task), {now, record} (not held) or these and a {@link HeldReply} (held). */
    static final class GetReply {
        static final int NOW = 0;
        static final int RECORD = 1;
        static final int HOLDER = 2;
        /** A completed task's: until when it is kept. */
        static final int KEPT_UNTIL = 2;
        /** A completed task's: its result, possibly empty. */
        static final int RESULT = 3;

        private GetReply() {
        }
    }

    /** A held task's part of a reply, from its holder on (get, in_flight_tasks): what O.append_held appends. */
    static final class HeldReply {
        static final int HOLDER = 0;
        static final int LEASED_AT = 1;
        /** -1: none. */
        static final int DEADLINE = 2;
        /** 1 when the cancellation was asked. */
        static final int CANCEL_REQUESTED = 3;
        /** Empty, or reported at (6 bytes), percent (1), message. */
        static final int PROGRESS = 4;
        static final int WIDTH = 5;

        private HeldReply() {
        }
    }

    /**
     * partition_tasks' reply: {now, waiting, total, in flight (-1: not counted), holder ('' none), since, blocked
     * until (-1: none), head id ('' none), head record, then id and record of each task of the page}.
     */
    static final class PartitionTasksReply {
        static final int NOW = 0;
        static final int WAITING = 1;
        static final int TOTAL = 2;
        static final int IN_FLIGHT = 3;
        static final int HOLDER = 4;
        static final int SINCE = 5;
        static final int BLOCKED_UNTIL = 6;
        static final int HEAD_ID = 7;
        static final int HEAD_RECORD = 8;
        static final int FIRST_TASK = 9;

        private PartitionTasksReply() {
        }
    }

    /**
     * in_flight_tasks' reply: {now, next holder ('' when done), next HSCAN cursor, next skip, then per task its
     * id, record and {@link HeldReply}}.
     */
    static final class InFlightReply {
        static final int NOW = 0;
        static final int NEXT_HOLDER = 1;
        static final int NEXT_CURSOR = 2;
        static final int NEXT_SKIP = 3;
        static final int FIRST_TASK = 4;
        static final int TASK_WIDTH = 2 + HeldReply.WIDTH;

        private InFlightReply() {
        }
    }

    /**
     * completed_tasks' reply: {now, total, retention in ms (0: results are not kept), then per task its id, record,
     * kept until and result size}.
     */
    static final class CompletedTasksReply {
        static final int NOW = 0;
        static final int TOTAL = 1;
        static final int RETENTION = 2;
        static final int FIRST_TASK = 3;
        static final int TASK_WIDTH = 4;

        private CompletedTasksReply() {
        }
    }

    /**
     * reclaim's reply: {returned, dead-lettered, timed out, cancelled, cursor (empty when done: else given to
     * the next call), names of the dead consumers done...}.
     */
    static final class ReclaimReply {
        static final int RETURNED = 0;
        static final int DEAD_LETTERED = 1;
        static final int TIMED_OUT = 2;
        static final int CANCELLED = 3;
        static final int CURSOR = 4;
        static final int FIRST_DEAD = 5;

        private ReclaimReply() {
        }
    }

    static final String LOCATION = "/io/ordo/redis/scripts/";
    private static final String SHEBANG = "#!lua";
    private static final String FLAGS = "flags=";

    private final String name;
    private final List<String> flags;
    private final String body;
    private final Enum<?>[] outcomes;

    /** @param outcomes the outcome each reply code stands for, in code order (0, 1, ...) */
    RedisScript(String name, Enum<?>... outcomes) {
        this.name = name;
        this.outcomes = outcomes;
        String text = read(name + ".lua");
        int firstLineEnd = text.indexOf('\n');
        String shebang = text.substring(0, Math.max(firstLineEnd, 0)).strip();
        if (!shebang.startsWith(SHEBANG)) {
            throw new IllegalStateException(name + ".lua must start with a " + SHEBANG + " line, starts with: " + shebang);
        }
        String options = shebang.substring(SHEBANG.length()).strip();
        this.flags = options.isEmpty() ? List.of() : List.of(options.substring(FLAGS.length()).split(","));
        this.body = text.substring(firstLineEnd + 1);
    }

    /** The operation's name, e.g. {@code publish}; the resource is {@code <name>.lua}. */
    public String operation() {
        return name;
    }

    /** The resource file name, e.g. {@code publish.lua}. */
    public String fileName() {
        return name + ".lua";
    }

    /** The function's flags, as Redis Functions know them ({@code allow-oom}, {@code no-writes}); empty for none. */
    public List<String> flags() {
        return flags;
    }

    /** The function's body (the resource without its first line). */
    String body() {
        return body;
    }

    /** The outcome a reply code of this script stands for. */
    <O extends Enum<O>> O outcome(Class<O> type, long code) {
        if (code < 0 || code >= outcomes.length) {
            throw new QueueDataException(name + " replied outcome code " + code + ", which it never gives");
        }
        return type.cast(outcomes[(int) code]);
    }

    /** The name the server knows the function by, in the current library. */
    public String functionName() {
        return RedisLibrary.CURRENT.functionName(this);
    }

    static String read(String name) {
        try (InputStream in = RedisScript.class.getResourceAsStream(LOCATION + name)) {
            if (in == null) {
                throw new IllegalStateException("missing script resource " + LOCATION + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read script resource " + LOCATION + name, e);
        }
    }
}
