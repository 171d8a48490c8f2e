package io.ordo.jmh;

import io.ordo.ports.PayloadCodec;
import io.ordo.runtime.codec.JacksonPayloadCodec;
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

import java.util.List;
import java.util.concurrent.TimeUnit;

/** The JSON payload codec a typed worker and publisher use for every task, on a ~100-byte order. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PayloadCodecBenchmark {
    /** The shape of the benchmark workloads' payload. */
    public record Order(long order, String customer, String amount, String currency, List<Integer> items) {
    }

    private final PayloadCodec codec = new JacksonPayloadCodec();
    private Order order;
    private byte[] encoded;

    @Setup
    public void encodeOnce() {
        order = new Order(12_345_678, "c-0042", "199.90", "EUR", List.of(1, 2, 3));
        encoded = codec.encode(order);
    }

    @Benchmark
    public byte[] encode() {
        return codec.encode(order);
    }

    @Benchmark
    public Order decode() {
        return codec.decode(encoded, Order.class);
    }
}
