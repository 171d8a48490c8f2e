package io.ordo.jmh.redis;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.ports.PublishReceipt;
import io.ordo.redis.RedisTaskStore;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The packed task record both Redis stores read and write (docs/redis-design.md), one task at a time
 * through the store's public API with Redis replaced by canned replies: the publish of one task (its
 * blob, arguments and receipt) and the consume of one (its record decoded into a lease).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class TaskRecordBenchmark {
    private static final ConsumerId HOLDER = ConsumerId.of("bench-worker-1");

    private final CannedTransport transport = new CannedTransport();
    private RedisTaskStore store;
    private List<NewTask> task;
    private List<Object> publishReply;
    private List<Object> consumeReply;

    @Setup
    public void makeRecord() {
        store = Replies100.store(transport);
        task = List.of(NewTask.builder(Partition.regular("p-42"), Replies100.payload()).build());
        publishReply = List.of(0L, 1L);
        consumeReply = Replies100.consumeReply(task);
    }

    @Benchmark
    public List<PublishReceipt> publishOne() {
        transport.reply = publishReply;
        return store.publish(task);
    }

    /** What a consume does per task taken: the record as it waited, with the lease it just got. */
    @Benchmark
    public List<Lease> consumeOne() {
        transport.reply = consumeReply;
        return store.consume(HOLDER, 1, Duration.ZERO);
    }
}
