package io.ordo.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Builds a script's ARGV: text as UTF-8 ({@link Utf8}), numbers as decimal. */
final class Args {
    private final List<byte[]> values = new ArrayList<>();

    Args add(String text) {
        values.add(Utf8.encode(text));
        return this;
    }

    Args add(long number) {
        values.add(Long.toString(number).getBytes(StandardCharsets.US_ASCII));
        return this;
    }

    Args add(byte[] bytes) {
        values.add(bytes);
        return this;
    }

    byte[][] toArray() {
        return values.toArray(byte[][]::new);
    }
}
