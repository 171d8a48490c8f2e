package io.ordo.cli.doctor;

import io.ordo.redis.RedisAcl;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which of the commands Ordo sends ({@link RedisAcl}, checked against the functions by
 * {@code RedisAclTest}) the connected user may not run. Redis checks a user's rights to a command
 * and its keys before it runs the command, so each command is sent in a form that, once allowed,
 * does nothing: reads of a key no queue uses, writes that fail on their own arguments (a score
 * that is not a number, an unpaired field), a function that does not exist, a library that does
 * not parse. Only {@code RPUSH} writes: one element to {@link #KEY}, deleted at once. Only the
 * arguments' shapes live here; {@code DoctorCommandTest} checks that every command of the list
 * has one.
 */
final class AclProbe {
    /** A key under {@code ordo:*} that no queue uses (braces: one slot on a cluster). */
    static final String KEY = "ordo:{ordo-doctor}:probe";

    /** The words after the command's name, for each command of {@link RedisAcl}'s lists (and WAIT), and a few more read-only key commands scripts may come to call. */
    static final Map<String, List<String>> ARGUMENTS = arguments();

    private AclProbe() {
    }

    private static Map<String, List<String>> arguments() {
        Map<String, List<String>> args = new LinkedHashMap<>();
        args.put("fcall", List.of("ordo_doctor_no_such_function", "1", KEY));
        args.put("function|load", List.of("not a library"));
        args.put("blpop", List.of(KEY, "0.01"));
        args.put("scan", List.of("0", "MATCH", KEY, "COUNT", "1"));
        args.put("time", List.of());
        args.put("exists", List.of(KEY));
        args.put("del", List.of(KEY));
        args.put("unlink", List.of(KEY));
        args.put("hget", List.of(KEY, "f"));
        args.put("hgetall", List.of(KEY));
        args.put("hscan", List.of(KEY, "0", "COUNT", "1"));
        args.put("hmget", List.of(KEY, "f"));
        args.put("hset", List.of(KEY, "f", "v", "unpaired"));
        args.put("hdel", List.of(KEY, "f"));
        args.put("hexists", List.of(KEY, "f"));
        args.put("hincrby", List.of(KEY, "f", "not-a-number"));
        args.put("hlen", List.of(KEY));
        args.put("hrandfield", List.of(KEY));
        args.put("type", List.of(KEY));
        args.put("lindex", List.of(KEY, "0"));
        args.put("llen", List.of(KEY));
        args.put("lrange", List.of(KEY, "0", "0"));
        args.put("lpop", List.of(KEY));
        args.put("rpush", List.of(KEY, "v"));
        args.put("rpop", List.of(KEY));
        args.put("zadd", List.of(KEY, "not-a-number", "m"));
        args.put("zrem", List.of(KEY, "m"));
        args.put("zcard", List.of(KEY));
        args.put("zcount", List.of(KEY, "0", "1"));
        args.put("zscore", List.of(KEY, "m"));
        args.put("zrank", List.of(KEY, "m"));
        args.put("zrange", List.of(KEY, "0", "0"));
        args.put("zrangebylex", List.of(KEY, "-", "+"));
        args.put("zrangebyscore", List.of(KEY, "0", "1"));
        args.put("zremrangebyrank", List.of(KEY, "0", "0"));
        args.put("zremrangebyscore", List.of(KEY, "0", "1"));
        args.put("cluster|slots", List.of());
        args.put("cluster|nodes", List.of());
        args.put("cluster|myid", List.of());
        args.put("info", List.of("server"));
        args.put("client|setname", List.of("ordo-doctor"));
        args.put("ping", List.of());
        args.put("wait", List.of("0", "0"));
        return args;
    }

    /** The commands Ordo needs on this deployment: the stores' and the functions', the cluster's on a cluster, WAIT when publishes wait for replicas. */
    static List<String> needed(boolean cluster, boolean waitsForReplicas) {
        List<String> commands = new ArrayList<>(RedisAcl.STORE_COMMANDS);
        commands.addAll(RedisAcl.SCRIPT_COMMANDS);
        if (cluster) {
            commands.addAll(RedisAcl.CLUSTER_COMMANDS);
        }
        if (waitsForReplicas) {
            commands.add("wait");
        }
        return commands;
    }

    /** The command as words: {@code cluster|slots} is {@code CLUSTER SLOTS}. */
    static List<String> words(String command) {
        List<String> words = new ArrayList<>(List.of(command.split("\\|")));
        List<String> arguments = ARGUMENTS.get(command);
        if (arguments == null) {
            throw new IllegalStateException("no probe arguments for the command " + command);
        }
        words.addAll(arguments);
        return words;
    }
}
