package io.ordo.redis;

import io.ordo.domain.Partition;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.RateLimit;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A queue's caps and rate limits as the Lua library keeps them (the {@code limits} field of {@code meta}, JSON,
 * read by limits.lua), its caps on the dead letters (the {@code deadLetterCaps} field, read by counters.lua), and
 * all of its settings back from the {@code settings} function's reply.
 */
final class QueueLimits {
    private QueueLimits() {
    }

    /** The JSON the library keeps, or "" when the settings have no cap and no rate limit. */
    static String encode(QueueSettings settings) {
        if (!settings.hasConcurrencyCaps() && !settings.hasRateLimits()) {
            return "";
        }
        StringBuilder json = new StringBuilder("{\"pc\":").append(settings.partitionConcurrency())
                .append(",\"qc\":").append(settings.queueConcurrency()).append(",\"ov\":{");
        String separator = "";
        for (Map.Entry<Partition, Integer> entry : settings.partitionConcurrencyOverrides().entrySet()) {
            json.append(separator);
            string(json, entry.getKey().code());
            json.append(':').append(entry.getValue());
            separator = ",";
        }
        json.append('}');
        rate(json, "qr", settings.queueRateLimit());
        rate(json, "pr", settings.partitionRateLimit());
        return json.append('}').toString();
    }

    /** {@code count:ageMs} as the library keeps them, or "" when the dead letters have no cap. */
    static String deadLetterCaps(QueueSettings settings) {
        return settings.hasDeadLetterCaps()
                ? settings.deadLetterMaxCount() + ":" + settings.deadLetterMaxAge().toMillis() : "";
    }

    /**
     * {@code retentionMs:maxResultBytes:eventLogLength} as the library keeps them (one field: a queue with
     * neither results nor a log reads nothing more), or "" for the defaults (no results kept, no log).
     */
    static String results(QueueSettings settings) {
        return settings.keepsResults() || settings.maxResultBytes() != QueueSettings.DEFAULT_MAX_RESULT_BYTES
                || settings.keepsEvents()
                ? settings.resultRetention().toMillis() + ":" + settings.maxResultBytes() + ":"
                + settings.eventLogLength() : "";
    }

    private static void rate(StringBuilder json, String name, RateLimit limit) {
        if (!limit.isOff()) {
            json.append(",\"").append(name).append("\":[").append(limit.permits()).append(',')
                    .append(limit.periodMillis()).append(',').append(limit.burst()).append(']');
        }
    }

    /** A JSON string: the code's characters as they are (UTF-8), but for the quote, the backslash and controls. */
    private static void string(StringBuilder json, String text) {
        json.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                json.append('\\').append(c);
            } else if (c < 0x20) {
                json.append(String.format("\\u%04x", (int) c));
            } else {
                json.append(c);
            }
        }
        json.append('"');
    }

    /**
     * The settings function's reply: the five plain settings, then the caps, the limits, the caps on the dead
     * letters, the results kept, the event log's length and the overrides.
     */
    static QueueSettings decode(List<Object> r) {
        Map<Partition, Integer> overrides = new TreeMap<>((a, b) -> a.code().compareTo(b.code()));
        for (int i = 18; i + 1 < r.size(); i += 2) {
            overrides.put(Partition.of(Replies.text(r, i)), Replies.integer(r, i + 1));
        }
        return new QueueSettings(Replies.integer(r, 0), Duration.ofMillis(Replies.number(r, 1)),
                Duration.ofMillis(Replies.number(r, 2)), Duration.ofMillis(Replies.number(r, 3)),
                Replies.integer(r, 4), Replies.integer(r, 5), overrides, Replies.integer(r, 6), rate(r, 7), rate(r, 10),
                Replies.integer(r, 13), Duration.ofMillis(Replies.number(r, 14)), Duration.ofMillis(Replies.number(r, 15)),
                Replies.integer(r, 16), Replies.integer(r, 17));
    }

    private static RateLimit rate(List<Object> r, int at) {
        int permits = Replies.integer(r, at);
        return permits == 0 ? RateLimit.OFF
                : new RateLimit(permits, Duration.ofMillis(Replies.number(r, at + 1)), Replies.integer(r, at + 2));
    }
}
