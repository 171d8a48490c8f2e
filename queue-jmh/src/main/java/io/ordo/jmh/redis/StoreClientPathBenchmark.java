package io.ordo.jmh.redis;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.TaskId;
import io.ordo.ports.AckOutcome;
import io.ordo.ports.PublishReceipt;
import io.ordo.ports.TaskStore;
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
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What the Redis store does in Java around each script call, with Redis replaced by canned replies:
 * a publish of 100 (validation, ids, blobs, arguments, receipts), a consume of 32 (reply decoding into
 * leases) and an ack of one. Shows how much of a task's cost is the client's, next to the server's.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class StoreClientPathBenchmark {
    private static final ConsumerId WORKER = ConsumerId.of("bench-worker-1");

    private final CannedTransport transport = new CannedTransport();
    private TaskStore store;
    private List<NewTask> hundred;
    private List<Object> consumeReply;
    private List<Object> publishReply;
    private TaskId ackedId;

    @Setup
    public void prepare() {
        store = Replies100.store(transport);
        hundred = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            hundred.add(NewTask.builder(Partition.regular("p-" + i), Replies100.payload()).build());
        }
        consumeReply = Replies100.consumeReply(hundred.subList(0, 32));
        publishReply = new ArrayList<>(Collections.nCopies(101, (Object) 1L));
        publishReply.set(0, 0L);
        ackedId = hundred.get(0).id();
        transport.reply = consumeReply;
        List<Lease> leases = store.consume(WORKER, 32, Duration.ZERO);
        if (leases.size() != 32 || !leases.get(5).id().equals(hundred.get(5).id())) {
            throw new IllegalStateException("the canned consume reply no longer decodes: " + leases);
        }
    }

    @Benchmark
    public List<PublishReceipt> publishHundred() {
        transport.reply = publishReply;
        return store.publish(hundred);
    }

    @Benchmark
    public List<Lease> consumeThirtyTwo() {
        transport.reply = consumeReply;
        return store.consume(WORKER, 32, Duration.ZERO);
    }

    @Benchmark
    public Map<TaskId, AckOutcome> ackOne() {
        transport.reply = List.of(1L);
        return store.ack(WORKER, List.of(ackedId));
    }
}
