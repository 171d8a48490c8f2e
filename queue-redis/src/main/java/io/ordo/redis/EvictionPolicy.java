package io.ordo.redis;

import java.util.Optional;

/**
 * Redis's {@code maxmemory-policy} as Ordo sees it: only {@code noeviction} keeps every task. Any other
 * policy lets a full Redis delete keys to make room, and a deleted key is lost tasks, locks or dead
 * letters, silently. One wording for {@code ordo doctor} and for the warning the stores log at start.
 */
public final class EvictionPolicy {
    /** The one policy under which Redis refuses writes when full instead of deleting keys. */
    public static final String SAFE = "noeviction";
    private static final String INFO_FIELD = "maxmemory_policy:";

    private EvictionPolicy() {
    }

    /** The policy named in the text of {@code INFO memory} (or plain {@code INFO}), if there. */
    public static Optional<String> inInfo(String info) {
        return info.lines().filter(line -> line.startsWith(INFO_FIELD))
                .map(line -> line.substring(INFO_FIELD.length()).strip()).findFirst();
    }

    public static boolean losesTasks(String policy) {
        return !SAFE.equals(policy);
    }

    /** Why {@code policy} loses tasks, for a log line or a report. */
    public static String problem(String policy) {
        return "maxmemory-policy is " + policy + ": a full Redis deletes keys to make room, and every deleted key"
                + " is tasks, locks or dead letters lost without a trace";
    }

    /** What to do about it. */
    public static String fix() {
        return "CONFIG SET maxmemory-policy " + SAFE + ", and maxmemory-policy " + SAFE
                + " in redis.conf (a full Redis then refuses publishes, which Ordo reports, and loses nothing)";
    }
}
