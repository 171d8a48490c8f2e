package io.ordo.redis;

import io.ordo.domain.QueueSettings;

import java.util.StringJoiner;

/**
 * The constants the Lua library shares with Java, written into the library's text from their Java
 * definitions (ahead of the shared files, see {@link RedisLibrary}): the two sides cannot disagree.
 */
final class LuaConstants {
    private final StringBuilder text = new StringBuilder("local O = {}\n");

    private LuaConstants() {
    }

    /** Every constant the library takes from Java, as Lua assignments to fields of its table {@code O}. */
    static String library() {
        LuaConstants constants = new LuaConstants();
        TaskRecords.declareIn(constants);
        constants.defaults(QueueSettings.DEFAULTS);
        return constants.text.toString();
    }

    /** The settings a queue has where none are configured (O.meta reads them). */
    private void defaults(QueueSettings settings) {
        integer("DEFAULT_MAX_ATTEMPTS", settings.maxAttempts());
        integer("DEFAULT_PROCESSING_TIMEOUT_MS", settings.processingTimeout().toMillis());
        integer("DEFAULT_DEDUP_WINDOW_MS", settings.dedupWindow().toMillis());
        integer("DEFAULT_HEARTBEAT_TTL_MS", settings.heartbeatTtl().toMillis());
        integer("DEFAULT_MAX_PAYLOAD_BYTES", settings.maxPayloadBytes());
    }

    /** {@code O.<name> = <value>}. */
    LuaConstants integer(String name, long value) {
        text.append("O.").append(name).append(" = ").append(value).append('\n');
        return this;
    }

    /** {@code O.<name> = { <values> }}: a Lua array, values in order. */
    LuaConstants integers(String name, long... values) {
        StringJoiner list = new StringJoiner(", ", "{ ", " }");
        for (long value : values) {
            list.add(Long.toString(value));
        }
        text.append("O.").append(name).append(" = ").append(list).append('\n');
        return this;
    }
}
