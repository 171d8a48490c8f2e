package io.ordo.jmh.redis;

import io.ordo.domain.NewTask;
import io.ordo.domain.QueueName;
import io.ordo.domain.Task;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStore;
import io.ordo.redis.ScriptExecutor;
import io.ordo.redis.TaskRecords;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Function replies as Redis sends them, made without Redis for the micro-benchmarks: records in the
 * layout of docs/redis-design.md (a consume leaves a task's record as it waited), written by the stores'
 * own codec, so the benchmarks decode exactly what a consume returns.
 */
final class Replies100 {
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

    /** The record of a task at its first delivery: as it waited, no attempt counted yet. */
    static byte[] waitingRecord(NewTask task, long seq, long now) {
        return TaskRecords.encode(new TaskRecords.Stored(Task.published(task, seq, now), TaskRecords.STATE_WAITING,
                null, 0));
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
}
