package io.ordo.jmh.redis;

import io.ordo.domain.NewTask;
import io.ordo.domain.QueueName;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStore;
import io.ordo.redis.ScriptExecutor;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Function replies as Redis sends them, made without Redis for the micro-benchmarks: records in the
 * layout of docs/redis-design.md (a consume leaves a task's record as it waited), built around the tail
 * of the real publish blob, so the benchmarks decode exactly what a consume returns.
 */
final class Replies100 {
    private static final int PUBLISH_HEADER = 12; // priority (2), delay (6), payload size (4) before the tail
    private static final int PUBLISH_BLOB_ARGUMENT = 2; // a publish of one task sends: now, id, blob
    private static final int STATE_WAITING = 0;

    private Replies100() {
    }

    /** The ~100-byte JSON object of the benchmark workloads. */
    static byte[] payload() {
        return ("{\"i\":\"0000000001\",\"p\":\"0000001\",\"k\":\"0000001\",\"t\":\"0000000000000000001\","
                + "\"cust\":\"c-42\",\"amount\":1999}").getBytes(StandardCharsets.US_ASCII);
    }

    /** A store whose every function call is answered by {@code transport}. */
    static RedisTaskStore store(CannedTransport transport) {
        return new RedisTaskStore(QueueName.of("bench"), new ScriptExecutor(transport,
                RedisOptions.create("redis://127.0.0.1:1")), null);
    }

    /** The blob the store sends for {@code task} when it publishes it: caught on its way to Redis. */
    static byte[] publishBlob(NewTask task) {
        CannedTransport transport = new CannedTransport();
        transport.reply = List.of(0L, 1L);
        store(transport).publish(List.of(task));
        return transport.lastArgs[PUBLISH_BLOB_ARGUMENT];
    }

    /** The record of a task at its first delivery: as it waited, no attempt counted yet. */
    static byte[] waitingRecord(NewTask task, long seq, long now) {
        byte[] blob = publishBlob(task);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        write(out, STATE_WAITING, 1);
        write(out, seq, 6);
        write(out, now, 6);   // publishedAt
        out.write(blob, PUBLISH_HEADER, blob.length - PUBLISH_HEADER);
        return out.toByteArray();
    }

    /** A consume reply taking {@code tasks}: -1 (nothing due later), the server's now, then id and record of each. */
    static List<Object> consumeReply(List<NewTask> tasks) {
        List<Object> reply = new ArrayList<>();
        reply.add(-1L);
        reply.add(1_700_000_000_000L); // the server's now: every lease's leasedAt
        long seq = 1;
        for (NewTask task : tasks) {
            reply.add(task.id().value().getBytes(StandardCharsets.UTF_8));
            reply.add(waitingRecord(task, seq++, 1_700_000_000_000L));
        }
        return reply;
    }

    private static void write(ByteArrayOutputStream out, long value, int bytes) {
        for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8) {
            out.write((int) (value >>> shift) & 0xff);
        }
    }
}
