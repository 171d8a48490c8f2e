package io.ordo.redis;

import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
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

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The packed task record both Redis stores read and write (docs/redis-design.md): the publish blob a
 * publish sends per task, and the decoding of one in-flight record a consume returns per task. In
 * {@code io.ordo.redis} because {@link TaskRecords} is package-private there.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class TaskRecordBenchmark {
    private static final io.ordo.domain.ConsumerId HOLDER = io.ordo.domain.ConsumerId.of("bench-worker-1");
    private NewTask task;
    private byte[] id;
    private byte[] record;

    @Setup
    public void makeRecord() {
        task = NewTask.builder(Partition.regular("p-42"), Replies100.payload()).build();
        id = task.id().value().getBytes(StandardCharsets.UTF_8);
        record = Replies100.waitingRecord(task, 7, 1_700_000_000_000L);
    }

    @Benchmark
    public byte[] publishBlob() {
        return TaskRecords.publishBlob(task);
    }

    /** What a consume does per task taken: the record as it waited, with the lease it just got. */
    @Benchmark
    public TaskRecords.Stored decodeLeased() {
        return TaskRecords.held(id, record, HOLDER, 1_700_000_000_000L);
    }
}
