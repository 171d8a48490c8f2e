package io.ordo.jmh;

import io.ordo.domain.OrderingKey;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The domain's ordering key (priority desc, due asc, seq asc): one comparison, and sorting a
 * partition's worth of keys, which the in-memory store and the simulator do on every step.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class OrderingKeyBenchmark {
    @Param({"1000"})
    int keys;

    private OrderingKey[] unsorted;
    private OrderingKey first;
    private OrderingKey second;

    @Setup
    public void makeKeys() {
        SplittableRandom random = new SplittableRandom(42);
        unsorted = new OrderingKey[keys];
        for (int i = 0; i < keys; i++) {
            // few priorities and many equal due times, as in a busy partition: every tie-break is used
            unsorted[i] = new OrderingKey(random.nextInt(3) * 10, 1_700_000_000_000L + random.nextInt(50), i);
        }
        first = new OrderingKey(0, 1_700_000_000_000L, 1);
        second = new OrderingKey(0, 1_700_000_000_000L, 2);
    }

    @Benchmark
    public int compareTwo() {
        return first.compareTo(second);
    }

    @Benchmark
    public OrderingKey[] sortPartition() {
        OrderingKey[] copy = unsorted.clone();
        Arrays.sort(copy);
        return copy;
    }
}
