package io.ordo.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The Lua scripts, one per store operation, each a resource {@code /io/ordo/redis/scripts/<name>.lua}.
 * A script is its file with the statements of {@code common.lua} it uses placed after its shebang line
 * (so the shebang, which Redis 7 reads for the script's flags, stays first; see {@link ScriptAssembler}).
 * Each is loaded once and called by its SHA-1.
 */
public enum RedisScript {
    PUBLISH("publish"),
    CONSUME("consume"),
    ACK("ack"),
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
    CONFIGURE("configure");

    private static final String LOCATION = "/io/ordo/redis/scripts/";

    private final String fileName;
    private final String body;
    private final String sha;

    RedisScript(String name) {
        this.fileName = name + ".lua";
        this.body = ScriptAssembler.assemble(read(fileName), read("common.lua"));
        this.sha = sha1Hex(body);
    }

    /** The resource file name, e.g. {@code publish.lua}. */
    public String fileName() {
        return fileName;
    }

    /** The full script as sent with EVAL and SCRIPT LOAD. */
    public String body() {
        return body;
    }

    /** The SHA-1 Redis knows the script by (EVALSHA). */
    public String sha() {
        return sha;
    }

    private static String read(String name) {
        try (InputStream in = RedisScript.class.getResourceAsStream(LOCATION + name)) {
            if (in == null) {
                throw new IllegalStateException("missing script resource " + LOCATION + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read script resource " + LOCATION + name, e);
        }
    }

    private static String sha1Hex(String text) {
        try {
            return Hex.encode(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK always has SHA-1", e);
        }
    }
}
