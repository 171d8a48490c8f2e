package io.ordo.benchmarks;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/** The names the raw Streams contenders use: one stream, one group, one field holding the payload. */
final class Streams {
    static final byte[] KEY = bytes("bench:stream");
    static final byte[] GROUP = bytes("bench");
    static final byte[] FIELD = bytes("d");

    private Streams() {
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** The payload of an entry (its only field; byte[] keys cannot be looked up by value). */
    static byte[] payload(Map<byte[], byte[]> fields) {
        if (fields.size() != 1) {
            throw new IllegalStateException("a benchmark stream entry has one field, this one " + fields.size());
        }
        return fields.values().iterator().next();
    }
}
