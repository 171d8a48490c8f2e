package io.ordo.redis;

import java.util.ArrayList;
import java.util.List;

/**
 * The least a Redis ACL user needs to run Ordo (docs/security.md): the keys {@code ordo:*}, no
 * channels, and only the commands below. Redis checks the commands a function calls against the
 * caller's ACL too, so the functions' commands are part of the list. AUTH and HELLO need no rule: a
 * user may always log in.
 */
public final class RedisAcl {
    /** Every key of every queue (and shard) starts with {@code ordo:}. */
    public static final String KEY_PATTERN = "~ordo:*";

    /**
     * What the stores send: the functions (and FUNCTION LOAD when a server does not have the library yet),
     * the blocking wait on a queue's signal, SCAN to list the queues (operators' views), and INFO once at
     * start to warn when the eviction policy can lose tasks ({@link EvictionWarning}).
     */
    public static final List<String> STORE_COMMANDS = List.of("fcall", "function|load", "blpop", "scan", "info");

    /** What the functions call. {@code RedisAclTest} checks the library against this list. */
    public static final List<String> SCRIPT_COMMANDS = List.of("time", "exists", "del", "hget", "hgetall",
            "hmget", "hset", "hdel", "hexists", "hincrby", "hlen", "hrandfield", "hscan", "lindex", "llen", "lrange",
            "lpop", "rpop", "rpush", "type", "zadd", "zrem", "zcard", "zcount", "zscore", "zrank", "zrange",
            "zrangebylex", "zrangebyscore", "zremrangebyrank", "zremrangebyscore", "unlink");

    /**
     * What the cluster clients send to learn the slot map and check the nodes: Jedis reads CLUSTER SLOTS
     * and pings a node before it uses it; Lettuce reads CLUSTER NODES, CLUSTER MYID and INFO (clients per
     * node, allowed for every deployment: {@link #STORE_COMMANDS}) on connections it names with CLIENT SETNAME.
     */
    public static final List<String> CLUSTER_COMMANDS = List.of("cluster|slots", "cluster|nodes", "cluster|myid",
            "client|setname", "ping");

    private RedisAcl() {
    }

    /**
     * The rules that follow {@code ACL SETUSER <user> on ><password>}: reset keys and channels, allow
     * {@code ordo:*}, deny every command, then allow Ordo's one by one.
     */
    public static List<String> rules(boolean cluster) {
        List<String> rules = new ArrayList<>(List.of("resetkeys", KEY_PATTERN, "resetchannels", "-@all"));
        List<String> commands = new ArrayList<>(STORE_COMMANDS);
        commands.addAll(SCRIPT_COMMANDS);
        if (cluster) {
            commands.addAll(CLUSTER_COMMANDS);
        }
        commands.forEach(command -> rules.add("+" + command));
        return rules;
    }
}
