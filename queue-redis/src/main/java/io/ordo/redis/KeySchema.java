package io.ordo.redis;

import io.ordo.domain.GroupName;
import io.ordo.domain.InvalidInputException;
import io.ordo.domain.QueueName;
import io.ordo.domain.Validate;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The Redis keys of one queue: {@code ordo:{<queue>}:<kind>}, all under the queue's hash tag so a queue
 * lives in one cluster slot and every script touches one slot. User-chosen text (task ids, partition
 * codes, consumer names) never forms a key by itself: ids are hash fields and set members, and codes
 * and names appear in keys only after a fixed kind, as they are after {@code =} when made of letters,
 * digits and {@code _ . - !} alone, else hex-encoded after {@code :} (docs/redis-design.md).
 */
public final class KeySchema {
    /**
     * The kinds of a queue's fixed keys, as {@code keys.lua} lists them ({@code O.KINDS}); a function
     * receives only {@code meta} and derives the others from its prefix (all share the queue's hash tag).
     */
    static final List<String> FIXED_KINDS = List.of("meta", "tasks", "ready", "delayed", "wake", "blocked", "turns",
            "parked", "stale", "locks", "consumers", "dead", "acked", "readyat", "readyat-count", "signal",
            "heartbeats", "lock-since", "inflight", "buckets", "throttled", "completed", "results", "control", "cancels", "deadlines",
            "events");

    /**
     * Matches, of every queue holding any data, at least one key: {@code meta} (tasks, dead letters,
     * counters, settings, pause), {@code consumers} (a heartbeat alone) or {@code blocked} (a block alone);
     * besides them only per-consumer {@code f} keys. User text in keys never holds {@code }} (it is
     * plain letters, digits and {@code _ . - !}, or hex), so {@code }:} after the tag is the tag's end.
     */
    static final String KNOWN_QUEUE_PATTERN = "ordo:{*}:[mbc]*";

    /** The index after a shard tag's {@code #}; compiled once, as every key of a scan is read. */
    private static final Pattern SHARD_INDEX = Pattern.compile("[0-9]{1,4}");

    /** Codes and names that appear in keys as they are (keys.lua's {@code O.PLAIN_NAME}). */
    private static final Pattern PLAIN_NAME = Pattern.compile("[0-9A-Za-z_.!-]+");

    /** Shards a sharded queue may have at most (docs/scaling.md). */
    public static final int MAX_SHARDS = 1024;

    private final QueueName queue;
    private final String tag;
    private final String prefix;
    private final GroupName group;
    private final byte[][] declaredKeys;

    private KeySchema(QueueName queue, String tag, GroupName group) {
        this.queue = queue;
        this.tag = tag;
        this.group = group;
        this.prefix = "ordo:{" + tag + "}:" + (group == null ? "" : "g=" + group.value() + ":");
        this.declaredKeys = new byte[][] {bytes(prefix + "meta")};
    }

    public static KeySchema of(QueueName queue) {
        return new KeySchema(queue, queue.value(), null);
    }

    /**
     * The keys of shard {@code index} of a sharded queue: hash tag {@code <queue>#<index>}, so each shard
     * is a slot of its own. Queue names cannot hold {@code #}, so no plain queue shares a shard's keys.
     */
    public static KeySchema forShard(QueueName queue, int index) {
        if (index < 0 || index >= MAX_SHARDS) {
            throw new InvalidInputException("shard", "must be 0.." + (MAX_SHARDS - 1) + ", was " + index);
        }
        return new KeySchema(queue, queue.value() + "#" + index, null);
    }

    /**
     * The keys of one consumer group of this queue (or shard): the queue's kinds under
     * {@code ordo:{<tag>}:g=<group>:}, in the queue's slot (docs/groups.md). Group names are letters, digits
     * and {@code . _ -}, so they cannot spell a partition's or a consumer's key, which follow other kinds.
     */
    public KeySchema forGroup(GroupName group) {
        return new KeySchema(queue, tag, Validate.notNull("group", group));
    }

    /** The keys of the queue (or shard) itself, the group's queue for a group's keys. */
    public KeySchema queueKeys() {
        return group == null ? this : new KeySchema(queue, tag, null);
    }

    /** The consumer group whose keys these are; empty for the queue's own. */
    public Optional<GroupName> group() {
        return Optional.ofNullable(group);
    }

    public QueueName queue() {
        return queue;
    }

    /**
     * The queue a key belongs to: the hash tag of {@code ordo:{<tag>}:…}, a shard's tag {@code <queue>#<i>}
     * giving its queue; empty for a key that no queue of Ordo can have.
     */
    static Optional<QueueName> queueOfKey(String key) {
        String start = "ordo:{";
        int end = key.indexOf("}:", start.length());
        if (!key.startsWith(start) || end < 0) {
            return Optional.empty();
        }
        String tag = key.substring(start.length(), end);
        int shard = tag.lastIndexOf('#');
        if (shard >= 0 && !SHARD_INDEX.matcher(tag.substring(shard + 1)).matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(QueueName.of(shard >= 0 ? tag.substring(0, shard) : tag));
        } catch (InvalidInputException notAQueueName) {
            return Optional.empty();
        }
    }

    /** The hash tag inside the braces: the queue's name, or {@code <queue>#<index>} for a shard. */
    public String tag() {
        return tag;
    }

    /** What every key of the queue starts with, e.g. {@code ordo:{orders}:} ({@code ordo:{orders}:g=billing:} for a group). */
    public String prefix() {
        return prefix;
    }

    /** The full name of one of the fixed keys, e.g. {@code key("tasks")}. */
    public String key(String kind) {
        if (!FIXED_KINDS.contains(kind)) {
            throw new IllegalArgumentException("not a fixed key of a queue: " + kind);
        }
        return prefix + kind;
    }

    /** The list a blocked consumer waits on. */
    public byte[] signalKey() {
        return bytes(key("signal"));
    }

    /**
     * The keys a function call declares: {@code meta} alone, from which the functions derive every other
     * key of the queue (one declared key costs the server less per call than eighteen); callers must not
     * modify the arrays.
     */
    byte[][] declaredKeys() {
        return declaredKeys;
    }

    /** The key that holds one partition's in-order arrivals, for diagnostics and tests. */
    public String partitionRunKey(String partitionCode) {
        return prefix + "pr" + namePart(partitionCode);
    }

    /** A code or name in a key, as {@code O.name_part} in keys.lua writes it. */
    static String namePart(String text) {
        return PLAIN_NAME.matcher(text).matches() ? "=" + text : ":" + Hex.encode(bytes(text));
    }

    private static byte[] bytes(String text) {
        return Utf8.encode(text);
    }
}
