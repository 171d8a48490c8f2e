package io.ordo.redis;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.InvalidInputException;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.Priority;
import io.ordo.domain.ReclaimCause;
import io.ordo.domain.RetryPolicy;
import io.ordo.domain.Task;
import io.ordo.domain.TaskId;
import io.ordo.ports.QueueDataException;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The packed task record the scripts keep as a hash value, and the publish blob they build it from
 * (layout in docs/redis-design.md, mirrored by {@code record.lua}, which a test holds to it). Big-endian,
 * lengths as 2 bytes. Public for what reads or writes records beside the stores: that test, the benchmarks.
 */
public final class TaskRecords {
    public static final int STATE_WAITING = 0;
    public static final int STATE_IN_FLIGHT = 1;
    public static final int STATE_DEAD = 2;
    /** Acked while the queue keeps results (docs/task-control.md): kept, with the time it completed. */
    public static final int STATE_COMPLETED = 3;

    private static final int FLAG_PRIORITY = 4;
    private static final int FLAG_ATTEMPTS = 8;
    private static final int FLAG_DUE = 16;
    private static final int FLAG_READY = 32;
    private static final int FLAG_ERROR = 64;
    /** The last error came from reclaim: its cause's code (1 byte) follows the error. */
    private static final int FLAG_RECLAIMED = 128;
    private static final int PRIORITY_OFFSET = 1000;
    /**
     * In the tail's header count: what the task carries beside its headers (type, own attempts limit,
     * own backoff) follows them, before the payload. Absent for a task with none, so such a record is as
     * short as it was before these existed, and old records read as tasks without them.
     */
    static final int HEADERS_EXTENDED = 0x80;
    static final int EXTRA_TYPE = 1;
    static final int EXTRA_MAX_ATTEMPTS = 2;
    static final int EXTRA_RETRY_POLICY = 4;
    static final int EXTRA_TIMEOUT = 8;

    private TaskRecords() {
    }

    /** The record's layout constants, as {@code record.lua} reads and writes records with them. */
    /**
     * A publish blob's delay field at or above this carries an instant to run at instead: this plus its epoch
     * milliseconds (both fit the six bytes; a delay of at most a year stays far below it).
     */
    static final long RUN_AT_MARK = 1L << 47;
    /**
     * Added to a publish argument's priority field (0..2000 otherwise) when the task has its own processing
     * timeout: publish learns it without reading the task's extras.
     */
    static final int OWN_TIMEOUT_MARK = 1 << 15;

    static void declareIn(LuaConstants lua) {
        lua.integer("RUN_AT_MARK", RUN_AT_MARK).integer("OWN_TIMEOUT_MARK", OWN_TIMEOUT_MARK).integer("STATE_WAITING", STATE_WAITING).integer("STATE_IN_FLIGHT", STATE_IN_FLIGHT)
                .integer("STATE_DEAD", STATE_DEAD).integer("STATE_COMPLETED", STATE_COMPLETED)
                .integer("FLAG_PRIORITY", FLAG_PRIORITY).integer("FLAG_ATTEMPTS", FLAG_ATTEMPTS)
                .integer("FLAG_DUE", FLAG_DUE).integer("FLAG_READY", FLAG_READY).integer("FLAG_ERROR", FLAG_ERROR)
                .integer("FLAG_RECLAIMED", FLAG_RECLAIMED)
                .integer("HEADERS_EXTENDED", HEADERS_EXTENDED).integer("EXTRA_TYPE", EXTRA_TYPE)
                .integer("EXTRA_MAX_ATTEMPTS", EXTRA_MAX_ATTEMPTS).integer("EXTRA_RETRY_POLICY", EXTRA_RETRY_POLICY)
                .integer("EXTRA_TIMEOUT", EXTRA_TIMEOUT)
                .integer("HOLDER_STOPPED_HEARTBEATING", ReclaimCause.HOLDER_STOPPED_HEARTBEATING.code())
                .integer("PROCESSING_TIMED_OUT", ReclaimCause.PROCESSING_TIMED_OUT.code());
    }

    /** A task as stored, with where it is: waiting, in flight (holder, leasedAt), dead (deadAt) or completed (completedAt). */
    public record Stored(Task task, int state, ConsumerId holder, long at) {
    }

    /**
     * A task a consumer holds: a consume leaves its record as it was (state waiting, the attempts of the
     * deliveries before this one), so the lease (holder, leasedAt) comes with it and this delivery is
     * counted here.
     */
    static Stored held(byte[] id, byte[] record, ConsumerId holder, long leasedAt) {
        Stored stored = decode(id, record, 1);
        return new Stored(stored.task(), STATE_IN_FLIGHT, holder, leasedAt);
    }

    /**
     * The publish argument of one task: priority+1000 (2, plus {@link #OWN_TIMEOUT_MARK} for a task with its own
     * timeout), delay ms or {@link #RUN_AT_MARK} + runAt (6),
     * payload size (4), then the record's tail, which the script stores as is: code, headers, the task's
     * extras if it has any, payload.
     */
    static byte[] publishBlob(NewTask task) {
        // sized up front and written in place: a ByteArrayOutputStream took ~3 µs per task (a synchronized
        // write per byte), a cost every publish pays per task
        byte[] code = Utf8.encode(task.partition().code());
        Map<String, String> headers = task.headers();
        byte[][] headerBytes = new byte[headers.size() * 2][];
        byte[] extras = extras(task.type(), task.maxAttempts(), task.retryPolicy(), task.timeout());
        int size = 12 + 2 + code.length + 1 + (extras == null ? 0 : extras.length) + task.payloadSize();
        int h = 0;
        for (Map.Entry<String, String> header : headers.entrySet()) {
            headerBytes[h] = Utf8.encode(header.getKey());
            headerBytes[h + 1] = Utf8.encode(header.getValue());
            size += 4 + headerBytes[h].length + headerBytes[h + 1].length;
            h += 2;
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.putShort((short) (task.priority().value() + PRIORITY_OFFSET
                + (task.timeout().isZero() ? 0 : OWN_TIMEOUT_MARK)));
        putInt6(out, task.runAt() == null ? task.delay().toMillis() : RUN_AT_MARK + task.runAt().toEpochMilli());
        out.putInt(task.payloadSize());
        putHeaders(out, code, headerBytes, extras);
        out.put(task.payload());
        return out.array();
    }

    /** The tail up to the payload: code, header count (with {@link #HEADERS_EXTENDED} when extras follow), headers, extras. */
    private static void putHeaders(ByteBuffer out, byte[] code, byte[][] headerBytes, byte[] extras) {
        putText(out, code);
        out.put((byte) (headerBytes.length / 2 | (extras == null ? 0 : HEADERS_EXTENDED)));
        for (byte[] text : headerBytes) {
            putText(out, text);
        }
        if (extras != null) {
            out.put(extras);
        }
    }

    /**
     * What a task carries beside its headers, or null when it carries nothing: flags(1) [type: len(2) bytes]
     * [maxAttempts(2)] [retry policy: initialDelay ms(6) multiplier(8, IEEE double) maxDelay ms(6) jitter(8)]
     * [timeout ms(6)].
     */
    private static byte[] extras(String type, int maxAttempts, RetryPolicy retryPolicy, Duration timeout) {
        if (type == null && maxAttempts == 0 && retryPolicy == null && timeout.isZero()) {
            return null;
        }
        byte[] typeBytes = type == null ? null : Utf8.encode(type);
        int flags = 0;
        int size = 1;
        if (typeBytes != null) {
            flags |= EXTRA_TYPE;
            size += 2 + typeBytes.length;
        }
        if (maxAttempts != 0) {
            flags |= EXTRA_MAX_ATTEMPTS;
            size += 2;
        }
        if (retryPolicy != null) {
            flags |= EXTRA_RETRY_POLICY;
            size += 28;
        }
        if (!timeout.isZero()) {
            flags |= EXTRA_TIMEOUT;
            size += 6;
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.put((byte) flags);
        if (typeBytes != null) {
            putText(out, typeBytes);
        }
        if (maxAttempts != 0) {
            out.putShort((short) maxAttempts);
        }
        if (retryPolicy != null) {
            putInt6(out, retryPolicy.initialDelay().toMillis());
            out.putDouble(retryPolicy.multiplier());
            putInt6(out, retryPolicy.maxDelay().toMillis());
            out.putDouble(retryPolicy.jitter());
        }
        if (!timeout.isZero()) {
            putInt6(out, timeout.toMillis());
        }
        return out.array();
    }

    /**
     * A waiting or dead record, as {@code O.encode} writes it (a task in flight is stored as it waited, its
     * lease apart): optional fields only where they differ from what their absence means.
     */
    public static byte[] encode(Stored stored) {
        Task task = stored.task();
        boolean dead = stored.state() == STATE_DEAD || stored.state() == STATE_COMPLETED; // both with a time
        byte[] code = Utf8.encode(task.partition().code());
        byte[] error = task.lastError() == null ? null : Utf8.encode(task.lastError());
        byte[][] headerBytes = new byte[task.headers().size() * 2][];
        byte[] extras = extras(task.type(), task.maxAttempts(), task.retryPolicy(), task.timeout());
        int size = 13 + 2 + code.length + 1 + (extras == null ? 0 : extras.length) + task.payload().length;
        int h = 0;
        for (Map.Entry<String, String> header : task.headers().entrySet()) {
            headerBytes[h] = Utf8.encode(header.getKey());
            headerBytes[h + 1] = Utf8.encode(header.getValue());
            size += 4 + headerBytes[h].length + headerBytes[h + 1].length;
            h += 2;
        }
        int flags = dead ? stored.state() : STATE_WAITING;
        if (task.priority().value() != 0) {
            flags |= FLAG_PRIORITY;
            size += 2;
        }
        if (task.attempts() != 0) {
            flags |= FLAG_ATTEMPTS;
            size += 2;
        }
        if (task.dueAt() != task.publishedAt()) {
            flags |= FLAG_DUE;
            size += 6;
        }
        if (task.readyAt() != task.dueAt()) {
            flags |= FLAG_READY;
            size += 6;
        }
        if (error != null) {
            flags |= FLAG_ERROR;
            size += 2 + error.length;
        }
        if (task.reclaimCause() != null) {
            flags |= FLAG_RECLAIMED;
            size += 1;
        }
        size += dead ? 6 : 0;
        ByteBuffer out = ByteBuffer.allocate(size);
        out.put((byte) flags);
        putInt6(out, task.seq());
        putInt6(out, task.publishedAt());
        if ((flags & FLAG_PRIORITY) != 0) {
            out.putShort((short) (task.priority().value() + PRIORITY_OFFSET));
        }
        if ((flags & FLAG_ATTEMPTS) != 0) {
            out.putShort((short) task.attempts());
        }
        if ((flags & FLAG_DUE) != 0) {
            putInt6(out, task.dueAt());
        }
        if ((flags & FLAG_READY) != 0) {
            putInt6(out, task.readyAt());
        }
        if (error != null) {
            putText(out, error);
        }
        if (task.reclaimCause() != null) {
            out.put((byte) task.reclaimCause().code());
        }
        if (dead) {
            putInt6(out, stored.at());
        }
        putHeaders(out, code, headerBytes, extras);
        out.put(task.payload());
        return out.array();
    }

    private static void putInt6(ByteBuffer out, long value) {
        out.putShort((short) (value >>> 32));
        out.putInt((int) value);
    }

    private static void putText(ByteBuffer out, byte[] text) {
        out.putShort((short) text.length);
        out.put(text);
    }

    /** A stored record as the functions keep it; {@link QueueDataException} if it is damaged. */
    public static Stored decode(byte[] id, byte[] record) {
        return decode(id, record, 0);
    }

    private static Stored decode(byte[] id, byte[] record, int attemptsAdded) {
        try {
            return decode(Utf8.decode(id), ByteBuffer.wrap(record), attemptsAdded);
        } catch (BufferUnderflowException | IllegalArgumentException | QueueDataException | InvalidInputException e) {
            throw new QueueDataException("task record of '" + new String(id, StandardCharsets.UTF_8)
                    + "' is damaged (" + record.length + " bytes)", e);
        }
    }

    private static Stored decode(String id, ByteBuffer in, int attemptsAdded) {
        int flags = in.get() & 0xff;
        long seq = readLong(in, 6);
        long publishedAt = readLong(in, 6);
        int priority = (flags & FLAG_PRIORITY) != 0 ? (int) readLong(in, 2) - PRIORITY_OFFSET : 0;
        int attempts = ((flags & FLAG_ATTEMPTS) != 0 ? (int) readLong(in, 2) : 0) + attemptsAdded;
        long dueAt = (flags & FLAG_DUE) != 0 ? readLong(in, 6) : publishedAt;
        long readyAt = (flags & FLAG_READY) != 0 ? readLong(in, 6) : dueAt;
        String lastError = (flags & FLAG_ERROR) != 0 ? readText(in) : null;
        ReclaimCause reclaimCause = (flags & FLAG_RECLAIMED) != 0 ? ReclaimCause.ofCode(in.get() & 0xff) : null;
        int state = flags & 3;
        ConsumerId holder = null;
        long at = 0;
        if (state == STATE_IN_FLIGHT) {
            at = readLong(in, 6);
            holder = ConsumerId.of(readText(in));
        } else if (state == STATE_DEAD || state == STATE_COMPLETED) {
            at = readLong(in, 6);
        }
        Partition partition = Partition.of(readText(in));
        int headerCount = in.get() & 0xff;
        boolean extended = (headerCount & HEADERS_EXTENDED) != 0;
        headerCount &= ~HEADERS_EXTENDED;
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 0; i < headerCount; i++) {
            headers.put(readText(in), readText(in));
        }
        String type = null;
        int maxAttempts = 0;
        RetryPolicy retryPolicy = null;
        Duration timeout = Duration.ZERO;
        if (extended) {
            int extras = in.get() & 0xff;
            if ((extras & EXTRA_TYPE) != 0) {
                type = readText(in);
            }
            if ((extras & EXTRA_MAX_ATTEMPTS) != 0) {
                maxAttempts = (int) readLong(in, 2);
            }
            if ((extras & EXTRA_RETRY_POLICY) != 0) {
                Duration initial = Duration.ofMillis(readLong(in, 6));
                double multiplier = in.getDouble();
                Duration max = Duration.ofMillis(readLong(in, 6));
                retryPolicy = new RetryPolicy(initial, multiplier, max, in.getDouble());
            }
            if ((extras & EXTRA_TIMEOUT) != 0) {
                timeout = Duration.ofMillis(readLong(in, 6));
            }
        }
        byte[] payload = new byte[in.remaining()];
        in.get(payload);
        Task task = new Task(TaskId.of(id), partition, Priority.of(priority), payload, headers, seq, attempts,
                publishedAt, dueAt, readyAt, lastError, reclaimCause, type, maxAttempts, retryPolicy, timeout);
        return new Stored(task, state, holder, at);
    }

    private static long readLong(ByteBuffer in, int bytes) {
        long value = 0;
        for (int i = 0; i < bytes; i++) {
            value = (value << 8) | (in.get() & 0xff);
        }
        return value;
    }

    private static String readText(ByteBuffer in) {
        int length = (int) readLong(in, 2);
        byte[] bytes = new byte[length];
        in.get(bytes);
        return Utf8.decode(bytes);
    }
}
