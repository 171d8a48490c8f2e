package io.ordo.redis;

import io.ordo.domain.Progress;

import java.nio.ByteBuffer;
import java.time.Instant;

/**
 * A task's progress as the Redis stores keep it in its control entry (docs/redis-design.md, "Task control"):
 * a heartbeat sends percent (1 byte) and the message; the entry keeps the time the report arrived (6 bytes)
 * before them.
 */
final class ProgressRecords {
    /** A report and when it reached the server. */
    record Reported(Progress progress, Instant at) {
    }

    private ProgressRecords() {
    }

    static byte[] encode(Progress progress) {
        byte[] message = Utf8.encode(progress.message());
        return ByteBuffer.allocate(1 + message.length).put((byte) progress.percent()).put(message).array();
    }

    /** The kept report (at, percent, message), or null when there is none (empty). */
    static Reported decode(byte[] kept) {
        if (kept == null || kept.length == 0) {
            return null;
        }
        long at = 0;
        for (int i = 0; i < 6; i++) {
            at = (at << 8) | (kept[i] & 0xff);
        }
        byte[] message = new byte[kept.length - 7];
        System.arraycopy(kept, 7, message, 0, message.length);
        return new Reported(new Progress(kept[6] & 0xff, Utf8.decode(message)), Instant.ofEpochMilli(at));
    }
}
