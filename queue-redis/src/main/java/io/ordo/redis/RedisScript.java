package io.ordo.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The store's operations on the server, one function each of the Redis Functions library
 * ({@link RedisLibrary}). Each is a resource {@code /io/ordo/redis/scripts/<name>.lua}: a first line
 * {@code #!lua} with the function's flags ({@code flags=allow-oom}, {@code flags=no-writes}), then the
 * function's body, which reads {@code KEYS} and {@code ARGV} as a script would.
 */
public enum RedisScript {
    PUBLISH("publish"),
    CONSUME("consume"),
    ACK("ack"),
    ACK_CONSUME("ack_consume"),
    REJECT("reject"),
    FAIL("fail"),
    RELEASE("release"),
    BLOCK_PARTITION("block_partition"),
    UNBLOCK_PARTITION("unblock_partition"),
    HEARTBEAT("heartbeat"),
    RECLAIM("reclaim"),
    CANCEL("cancel"),
    GET("get"),
    DEAD_LETTERS("dead_letters"),
    REDRIVE("redrive"),
    REDRIVE_ALL("redrive_all"),
    PURGE_DEAD_LETTERS("purge_dead_letters"),
    PURGE_ALL_DEAD_LETTERS("purge_all_dead_letters"),
    STATS("stats"),
    INSPECT("inspect"),
    PAUSE("pause"),
    RESUME("resume"),
    SETTINGS("settings"),
    CONFIGURE("configure"),
    WAKE("wake");

    static final String LOCATION = "/io/ordo/redis/scripts/";
    private static final String SHEBANG = "#!lua";
    private static final String FLAGS = "flags=";

    private final String name;
    private final List<String> flags;
    private final String body;

    RedisScript(String name) {
        this.name = name;
        String text = read(name + ".lua");
        int firstLineEnd = text.indexOf('\n');
        String shebang = text.substring(0, Math.max(firstLineEnd, 0)).strip();
        if (!shebang.startsWith(SHEBANG)) {
            throw new IllegalStateException(name + ".lua must start with a " + SHEBANG + " line, starts with: " + shebang);
        }
        String options = shebang.substring(SHEBANG.length()).strip();
        this.flags = options.isEmpty() ? List.of() : List.of(options.substring(FLAGS.length()).split(","));
        this.body = text.substring(firstLineEnd + 1);
    }

    /** The operation's name, e.g. {@code publish}; the resource is {@code <name>.lua}. */
    public String operation() {
        return name;
    }

    /** The resource file name, e.g. {@code publish.lua}. */
    public String fileName() {
        return name + ".lua";
    }

    /** The function's flags, as Redis Functions know them ({@code allow-oom}, {@code no-writes}); empty for none. */
    public List<String> flags() {
        return flags;
    }

    /** The function's body (the resource without its first line). */
    String body() {
        return body;
    }

    /** The name the server knows the function by, in the current library. */
    public String functionName() {
        return RedisLibrary.CURRENT.functionName(this);
    }

    static String read(String name) {
        try (InputStream in = RedisScript.class.getResourceAsStream(LOCATION + name)) {
            if (in == null) {
                throw new IllegalStateException("missing script resource " + LOCATION + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read script resource " + LOCATION + name, e);
        }
    }
}
