package io.ordo.redis;

import io.ordo.domain.QueueSettings;

/**
 * The constants the Lua library shares with Java, written into the library's text from their Java
 * definitions (after {@code keys.lua}, which declares the table {@code O}; see {@link RedisLibrary}): the two sides cannot disagree.
 */
final class LuaConstants {
    /** Where a Redis error on one of these lines says it is. */
    static final String SOURCE = "(constants from Java: LuaConstants)";

    private final StringBuilder text = new StringBuilder();

    private LuaConstants() {
    }

    /** Every constant the library takes from Java, as Lua assignments to fields of its table {@code O}. */
    static String library() {
        LuaConstants constants = new LuaConstants();
        TaskRecords.declareIn(constants);
        EventLogRecords.declareIn(constants);
        constants.defaults(QueueSettings.DEFAULTS);
        constants.integer("DEAD_LETTERS_DROPPED_PER_DEATH", QueueSettings.DEAD_LETTERS_DROPPED_PER_DEATH);
        return constants.text.toString();
    }

    /** The settings a queue has where none are configured (O.meta reads them). */
    private void defaults(QueueSettings settings) {
        integer("DEFAULT_MAX_ATTEMPTS", settings.maxAttempts());
        integer("DEFAULT_PROCESSING_TIMEOUT_MS", settings.processingTimeout().toMillis());
        integer("DEFAULT_DEDUP_WINDOW_MS", settings.dedupWindow().toMillis());
        integer("DEFAULT_HEARTBEAT_TTL_MS", settings.heartbeatTtl().toMillis());
        integer("DEFAULT_MAX_PAYLOAD_BYTES", settings.maxPayloadBytes());
        integer("DEFAULT_MAX_RESULT_BYTES", settings.maxResultBytes());
    }

    /** {@code O.<name> = <value>}. */
    LuaConstants integer(String name, long value) {
        text.append("O.").append(name).append(" = ").append(value).append('\n');
        return this;
    }
}
