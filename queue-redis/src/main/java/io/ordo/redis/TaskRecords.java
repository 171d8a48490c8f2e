package io.ordo.redis;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.Priority;
import io.ordo.domain.Task;
import io.ordo.domain.TaskId;
import io.ordo.ports.QueueDataException;

import java.io.ByteArrayOutputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The packed task record the scripts keep as a hash value, and the publish blob they build it from
 * (layout in docs/redis-design.md, mirrored by {@code common.lua}). Big-endian, lengths as 2 bytes.
 */
final class TaskRecords {
    static final int STATE_WAITING = 0;
    static final int STATE_IN_FLIGHT = 1;
    static final int STATE_DEAD = 2;

    private static final int FLAG_PRIORITY = 4;
    private static final int FLAG_ATTEMPTS = 8;
    private static final int FLAG_DUE = 16;
    private static final int FLAG_READY = 32;
    private static final int FLAG_ERROR = 64;
    private static final int PRIORITY_OFFSET = 1000;

    private TaskRecords() {
    }

    /** A task as stored, with where it is: waiting, in flight (holder, leasedAt) or dead (deadAt). */
    record Stored(Task task, int state, ConsumerId holder, long at) {
    }

    /**
     * The publish argument of one task: priority+1000 (2), delay ms (6), payload size (4), then the
     * record's tail, which the script stores as is: code, headers, payload.
     */
    static byte[] publishBlob(NewTask task) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 + task.payloadSize());
        writeInt(out, task.priority().value() + PRIORITY_OFFSET, 2);
        writeInt(out, task.delay().toMillis(), 6);
        writeInt(out, task.payloadSize(), 4);
        writeText(out, task.partition().code());
        out.write(task.headers().size());
        task.headers().forEach((name, value) -> {
            writeText(out, name);
            writeText(out, value);
        });
        out.writeBytes(task.payload());
        return out.toByteArray();
    }

    static Stored decode(byte[] id, byte[] record) {
        try {
            return decode(new String(id, StandardCharsets.UTF_8), ByteBuffer.wrap(record));
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new QueueDataException("task record of '" + new String(id, StandardCharsets.UTF_8)
                    + "' is damaged (" + record.length + " bytes)", e);
        }
    }

    private static Stored decode(String id, ByteBuffer in) {
        int flags = in.get() & 0xff;
        long seq = readLong(in, 6);
        long publishedAt = readLong(in, 6);
        int priority = (flags & FLAG_PRIORITY) != 0 ? (int) readLong(in, 2) - PRIORITY_OFFSET : 0;
        int attempts = (flags & FLAG_ATTEMPTS) != 0 ? (int) readLong(in, 2) : 0;
        long dueAt = (flags & FLAG_DUE) != 0 ? readLong(in, 6) : publishedAt;
        long readyAt = (flags & FLAG_READY) != 0 ? readLong(in, 6) : dueAt;
        String lastError = (flags & FLAG_ERROR) != 0 ? readText(in) : null;
        int state = flags & 3;
        ConsumerId holder = null;
        long at = 0;
        if (state == STATE_IN_FLIGHT) {
            at = readLong(in, 6);
            holder = ConsumerId.of(readText(in));
        } else if (state == STATE_DEAD) {
            at = readLong(in, 6);
        }
        Partition partition = Partition.of(readText(in));
        int headerCount = in.get() & 0xff;
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 0; i < headerCount; i++) {
            headers.put(readText(in), readText(in));
        }
        byte[] payload = new byte[in.remaining()];
        in.get(payload);
        Task task = new Task(TaskId.of(id), partition, Priority.of(priority), payload, headers, seq, attempts,
                publishedAt, dueAt, readyAt, lastError);
        return new Stored(task, state, holder, at);
    }

    private static void writeInt(ByteArrayOutputStream out, long value, int bytes) {
        for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8) {
            out.write((int) (value >>> shift) & 0xff);
        }
    }

    private static void writeText(ByteArrayOutputStream out, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        writeInt(out, bytes.length, 2);
        out.writeBytes(bytes);
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
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
