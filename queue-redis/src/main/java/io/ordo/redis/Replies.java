package io.ordo.redis;

import io.ordo.ports.QueueDataException;

import java.nio.charset.StandardCharsets;
import java.util.List;

/** Reading script replies: integers come back as Long, strings as byte[] (both clients, binary-safe). */
final class Replies {
    private Replies() {
    }

    static long number(List<Object> reply, int index) {
        Object value = reply.get(index);
        if (value instanceof Long number) {
            return number;
        }
        if (value instanceof byte[] bytes) {
            return Long.parseLong(new String(bytes, StandardCharsets.US_ASCII));
        }
        throw new QueueDataException("unexpected script reply element " + index + ": " + value);
    }

    static int integer(List<Object> reply, int index) {
        return Math.toIntExact(number(reply, index));
    }

    static byte[] bytes(List<Object> reply, int index) {
        Object value = reply.get(index);
        if (value instanceof byte[] bytes) {
            return bytes;
        }
        if (value == null) {
            return null;
        }
        throw new QueueDataException("unexpected script reply element " + index + ": " + value);
    }

    static String text(List<Object> reply, int index) {
        return Utf8.decode(bytes(reply, index));
    }
}
