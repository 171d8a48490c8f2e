package io.ordo.redis;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The one Redis Functions library that holds every operation of the stores
 * (docs/decisions/redis-functions.md). Its shared part is defined once, when the server loads the
 * library, instead of at every call as a script's would be; each call then costs only what its
 * function does. The library is named after a digest of its text ({@code ordo_<version>}) and so are its
 * functions ({@code ordo_<version>_<operation>}): a server may hold the libraries of several Ordo versions
 * at once, and a changed library can never be called under an old name.
 *
 * <p>The text: {@code #!lua name=…}, the shared files by concern ({@code keys.lua}: the queue's keys, names in
 * keys, checks of their types; then the constants Lua shares with Java, {@link LuaConstants}; {@code counters.lua}: the call's clock, settings and counters;
 * {@code record.lua}: the task record and leases; {@code partition_index.lua}: order inside and across
 * partitions, time-driven changes; {@code lifecycle.lua}: taking tasks; {@code finishing.lua}: ack, giving
 * back, dead letters and the end of every call), each function's short name for the bodies next to its
 * definition; then one {@code redis.register_function} per {@link RedisScript}, whose callback is
 * {@code function_prelude.lua} (binding the queue's keys) followed by the operation's body. A Redis error's
 * line in the library is told as the file and line it comes from ({@link #locate}).
 */
public final class RedisLibrary {
    /** The shared files, in the library's order. */
    static final List<String> SHARED = List.of("keys.lua", "counters.lua", "record.lua", "partition_index.lua",
            "lifecycle.lua", "finishing.lua", "control.lua", "results.lua", "event_log.lua", "limits.lua");
    static final String PRELUDE = "function_prelude.lua";
    private static final String VERSION_MARK = "@VERSION@";

    /** The library of this build (after the constants its assembly reads). */
    public static final RedisLibrary CURRENT = assemble();

    private final String version;
    private final String code;
    private final String[] functionNames;
    private final SourceMap sourceMap;

    private RedisLibrary(String version, String code, SourceMap sourceMap) {
        this.version = version;
        this.code = code;
        this.sourceMap = sourceMap;
        this.functionNames = java.util.Arrays.stream(RedisScript.values())
                .map(script -> name() + "_" + script.operation()).toArray(String[]::new);
    }

    private static RedisLibrary assemble() {
        SourceMap.Builder text = new SourceMap.Builder();
        text.append("#!lua name=ordo_" + VERSION_MARK + "\n", "(library header)", 1);
        // the first file declares the table O, the constants follow before any file reads them
        text.append(RedisScript.read(SHARED.get(0)) + "\n", SHARED.get(0), 1);
        text.append(LuaConstants.library(), LuaConstants.SOURCE, 1);
        SHARED.subList(1, SHARED.size()).forEach(file -> text.append(RedisScript.read(file) + "\n", file, 1));
        String prelude = RedisScript.read(PRELUDE);
        for (RedisScript script : RedisScript.values()) {
            String flags = script.flags().stream().map(flag -> "'" + flag + "'").collect(Collectors.joining(", "));
            text.append("-- " + script.fileName() + "\n"
                    + "redis.register_function { function_name = 'ordo_" + VERSION_MARK + "_" + script.operation()
                    + "', flags = { " + flags + " }, callback = function(KEYS, ARGV)\n", "(registration of " + script.fileName() + ")", 1);
            text.append(prelude, PRELUDE, 1);
            if (script == RedisScript.FIRE_SCHEDULE) {
                // a schedule's slots are published exactly as publish does, in the same step as the slot check
                text.append("local function publish_tasks(ARGV)\n", "(registration of " + script.fileName() + ")", 1);
                text.append(RedisScript.PUBLISH.body(), RedisScript.PUBLISH.fileName(), 2);
                text.append("end\n", "(registration of " + script.fileName() + ")", 2);
            }
            text.append(script.body(), script.fileName(), 2); // the body starts below the file's #!lua line
            text.append("end }\n", "(registration of " + script.fileName() + ")", 3);
        }
        String unversioned = text.text();
        String version = sha1Hex(unversioned).substring(0, 12);
        return new RedisLibrary(version, unversioned.replace(VERSION_MARK, version), text.build());
    }

    /**
     * A Redis error's text with each place in the library ({@code user_function:<line>}) told as the file
     * and line it comes from ({@code reclaim.lua:42}).
     */
    public String locate(String errorMessage) {
        return sourceMap.locate(errorMessage);
    }

    /** The digest of the library's text that names it and its functions. */
    public String version() {
        return version;
    }

    /** The library's name on the server ({@code FUNCTION LIST LIBRARYNAME}). */
    public String name() {
        return "ordo_" + version;
    }

    /** What {@code FUNCTION LOAD REPLACE} receives. */
    public String code() {
        return code;
    }

    String functionName(RedisScript script) {
        return functionNames[script.ordinal()];
    }

    private static String sha1Hex(String text) {
        try {
            return Hex.encode(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK always has SHA-1", e);
        }
    }
}
