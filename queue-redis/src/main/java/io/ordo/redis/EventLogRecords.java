package io.ordo.redis;

import io.ordo.domain.Partition;
import io.ordo.domain.TaskId;
import io.ordo.ports.EventLogCursor;
import io.ordo.ports.TaskEvent;
import io.ordo.ports.TaskEventPage;
import io.ordo.ports.TaskEventType;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The queue's event log as the Redis stores keep it (event_log.lua; docs/redis-design.md, "Event log"): one list
 * element an event, its type (1 byte), when (a double, ms), the partition's code and the id (each after its
 * length, 4 bytes), then the reason.
 */
final class EventLogRecords {
    private static final TaskEventType[] TYPES = {null, TaskEventType.COMPLETED, TaskEventType.FAILED,
            TaskEventType.DEAD_LETTERED, TaskEventType.CANCELLED};

    private EventLogRecords() {
    }

    /** The type codes, O.EVENT_COMPLETED and the others. */
    static void declareIn(LuaConstants lua) {
        for (int code = 1; code < TYPES.length; code++) {
            lua.integer("EVENT_" + TYPES[code].name(), code);
        }
    }

    /** The task_events reply after the seq {@code after} (see {@link RedisScript#TASK_EVENTS}). */
    static TaskEventPage page(String cursor, long after, List<Object> reply) {
        long oldest = Replies.number(reply, 1);
        long seq = Math.max(after + 1, oldest);
        List<TaskEvent> events = new ArrayList<>(reply.size() - 2);
        for (int i = 2; i < reply.size(); i++) {
            events.add(decode(seq++, Replies.bytes(reply, i)));
        }
        return EventLogCursor.page(cursor, after, oldest, events);
    }

    static TaskEvent decode(long seq, byte[] element) {
        ByteBuffer in = ByteBuffer.wrap(element);
        int type = in.get() & 0xff;
        if (type >= TYPES.length || TYPES[type] == null) {
            throw new IllegalStateException("event " + seq + " has an unknown type " + type);
        }
        long at = (long) in.getDouble();
        String code = Utf8.decode(next(in, in.getInt()));
        String id = Utf8.decode(next(in, in.getInt()));
        String reason = Utf8.decode(next(in, in.remaining()));
        return new TaskEvent(seq, TYPES[type], TaskId.of(id), Partition.of(code), Instant.ofEpochMilli(at),
                reason.isEmpty() ? Optional.empty() : Optional.of(reason));
    }

    private static byte[] next(ByteBuffer in, int length) {
        byte[] bytes = new byte[length];
        in.get(bytes);
        return bytes;
    }
}
