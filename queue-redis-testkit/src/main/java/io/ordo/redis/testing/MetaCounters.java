package io.ordo.redis.testing;

import io.ordo.redis.KeySchema;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads one of a queue's counters from its {@code meta} hash, where the library keeps them packed in one
 * value; the counters' order is read from the library's own list ({@code O.COUNTERS} in counters.lua).
 */
public final class MetaCounters {
    private static final Pattern COUNTERS = Pattern.compile("O\\.COUNTERS = \\{([^}]*)}");
    private static final Pattern FORMAT = Pattern.compile("O\\.COUNTERS_FORMAT = '([^']*)'");

    private MetaCounters() {
    }

    /** The counter's value, or its default (0 for the counts) when the queue never wrote its counters. */
    public static long read(RedisServer server, KeySchema schema, String counter) {
        String library = library();
        List<String> names = Arrays.stream(group(COUNTERS, library).split(","))
                .map(name -> name.strip().replace("'", "")).toList();
        int index = names.indexOf(counter);
        if (index < 0) {
            throw new IllegalArgumentException("no counter " + counter + " in " + names);
        }
        Object value = server.command("EVAL", "local packed = redis.call('HGET', KEYS[1], 'counters') "
                + "if not packed then return false end "
                + "return tostring(({struct.unpack(ARGV[1], packed)})[tonumber(ARGV[2])])",
                "1", schema.key("meta"), group(FORMAT, library), Integer.toString(index + 1));
        return value == null ? 0 : (long) Double.parseDouble(value.toString());
    }

    private static String group(Pattern pattern, String text) {
        Matcher matcher = pattern.matcher(text);
        if (!matcher.find()) {
            throw new IllegalStateException("counters.lua no longer matches " + pattern);
        }
        return matcher.group(1);
    }

    private static String library() {
        try (InputStream in = MetaCounters.class.getResourceAsStream("/io/ordo/redis/scripts/counters.lua")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
