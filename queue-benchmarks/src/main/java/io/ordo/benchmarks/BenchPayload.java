package io.ordo.benchmarks;

import java.nio.charset.StandardCharsets;

/**
 * The ~100-byte JSON object every workload publishes (docs/benchmarks.md), the same on every contender:
 * {@code {"i":"0000000001","p":"0000001","k":"0000001","t":"0000000000000000001","cust":"c-42","amount":1999}}.
 * Its numbers are zero-padded strings at fixed offsets, so the handler reads them back without a JSON
 * parser: {@code i} the task's index in the run (exactly-once check), {@code p} its partition,
 * {@code k} its place in the partition (order check), {@code t} the {@link BenchClock} nanos at the
 * start of the publish call (latency). The BullMQ script builds the same object.
 *
 * <p>M3's worker keeps a result of the same size with each completed task, {@link #result}: a JSON object
 * naming the task's index at the same offset, so a check can tell whose result a completed task kept.
 */
final class BenchPayload {
    static final int SIZE = 100;
    private static final byte[] TEMPLATE = ("{\"i\":\"0000000000\",\"p\":\"0000000\",\"k\":\"0000000\","
            + "\"t\":\"0000000000000000000\",\"cust\":\"c-42\",\"amount\":1999}").getBytes(StandardCharsets.US_ASCII);
    private static final int INDEX_AT = 6;
    private static final int INDEX_DIGITS = 10;
    private static final int PARTITION_AT = 23;
    private static final int PARTITION_DIGITS = 7;
    private static final int PLACE_AT = 37;
    private static final int PLACE_DIGITS = 7;
    private static final int SENT_AT = 51;
    private static final int SENT_DIGITS = 19;
    private static final byte[] RESULT_TEMPLATE = ("{\"i\":\"0000000000\",\"state\":\"done\",\"worker\":\"bench-worker-1\","
            + "\"total\":1999,\"note\":\"kept for the owner\"}").getBytes(StandardCharsets.US_ASCII);

    static {
        if (TEMPLATE.length != SIZE || RESULT_TEMPLATE.length != SIZE) {
            throw new AssertionError("the payload and result templates must be " + SIZE + " bytes, are "
                    + TEMPLATE.length + " and " + RESULT_TEMPLATE.length);
        }
    }

    private BenchPayload() {
    }

    /** A payload stamped with the current {@link BenchClock} time. */
    static byte[] of(long index, int partition, int place) {
        return of(index, partition, place, BenchClock.nanos());
    }

    static byte[] of(long index, int partition, int place, long sentNanos) {
        byte[] payload = TEMPLATE.clone();
        write(payload, INDEX_AT, INDEX_DIGITS, index);
        write(payload, PARTITION_AT, PARTITION_DIGITS, partition);
        write(payload, PLACE_AT, PLACE_DIGITS, place);
        write(payload, SENT_AT, SENT_DIGITS, sentNanos);
        return payload;
    }

    /** The {@link #SIZE}-byte result M3 keeps with the completed task of this index. */
    static byte[] result(long index) {
        byte[] result = RESULT_TEMPLATE.clone();
        write(result, INDEX_AT, INDEX_DIGITS, index);
        return result;
    }

    static int index(byte[] payload) {
        return (int) read(payload, INDEX_AT, INDEX_DIGITS);
    }

    static int partition(byte[] payload) {
        return (int) read(payload, PARTITION_AT, PARTITION_DIGITS);
    }

    static int place(byte[] payload) {
        return (int) read(payload, PLACE_AT, PLACE_DIGITS);
    }

    static long sentNanos(byte[] payload) {
        return read(payload, SENT_AT, SENT_DIGITS);
    }

    private static void write(byte[] target, int at, int digits, long value) {
        if (value < 0) {
            throw new IllegalArgumentException("payload numbers are not negative: " + value);
        }
        long rest = value;
        for (int i = at + digits - 1; i >= at; i--) {
            target[i] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
        if (rest != 0) {
            throw new IllegalArgumentException(value + " needs more than " + digits + " digits");
        }
    }

    private static long read(byte[] source, int at, int digits) {
        if (source.length != SIZE) {
            throw new IllegalArgumentException("not a benchmark payload: " + source.length + " bytes");
        }
        long value = 0;
        for (int i = at; i < at + digits; i++) {
            value = value * 10 + (source[i] - '0');
        }
        return value;
    }
}
