package io.ordo.redis.testing;

import io.ordo.domain.QueueName;
import io.ordo.redis.KeySchema;
import io.ordo.redis.RedisAcl;
import io.ordo.redis.RedisLibrary;
import io.ordo.redis.RedisScript;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The least-privilege ACL rule list is complete for the scripts, tight, accepted by Redis and documented. */
@ExtendWith(RedisServerExtension.class)
class RedisAclTest {
    private static final Pattern CALL = Pattern.compile("call\\('([A-Za-z]+)'");
    private static final String KEY = KeySchema.of(QueueName.of("orders")).key("meta");

    /** Every command named in a redis.call/pcall (through O.call too) of the library. */
    private static Set<String> commandsTheScriptsCall() {
        Set<String> commands = new TreeSet<>();
        Matcher call = CALL.matcher(RedisLibrary.CURRENT.code());
        while (call.find()) {
            commands.add(call.group(1).toLowerCase(Locale.ROOT));
        }
        return commands;
    }

    @Test
    void the_rules_allow_every_command_the_scripts_call_and_no_other() {
        assertThat(new TreeSet<>(RedisAcl.SCRIPT_COMMANDS)).isEqualTo(commandsTheScriptsCall());
    }

    @Test
    void redis_accepts_the_rules_and_they_let_ordo_in_and_nothing_else(RedisServer server) {
        setUser(server, "ordo-acl-check", RedisAcl.rules(false));

        assertThat(dryRun(server, "FCALL", RedisScript.STATS.functionName(), "1", KEY, "")).isEqualTo("OK");
        assertThat(dryRun(server, "FUNCTION", "LOAD", "REPLACE", RedisLibrary.CURRENT.code())).isEqualTo("OK");
        assertThat(dryRun(server, "FUNCTION", "FLUSH")).contains("no permissions");
        assertThat(dryRun(server, "BLPOP", KEY, "1")).isEqualTo("OK");
        assertThat(dryRun(server, "SCAN", "0", "MATCH", "ordo:{*}:[mbc]*")).isEqualTo("OK");
        assertThat(dryRun(server, "HGET", KEY, "seq")).isEqualTo("OK");
        assertThat(dryRun(server, "HGET", "someone-else:key", "seq")).contains("no permissions");
        assertThat(dryRun(server, "GET", KEY)).contains("no permissions");
        assertThat(dryRun(server, "KEYS", "*")).contains("no permissions");
        assertThat(dryRun(server, "FLUSHALL")).contains("no permissions");
        assertThat(dryRun(server, "CONFIG", "GET", "*")).contains("no permissions");
        assertThat(dryRun(server, "SUBSCRIBE", "channel")).contains("no permissions");
        assertThat(dryRun(server, "CLUSTER", "NODES")).contains("no permissions");
    }

    @Test
    void the_cluster_rules_add_only_what_cluster_clients_read_of_the_topology(RedisServer server) {
        setUser(server, "ordo-acl-cluster-check", RedisAcl.rules(true));

        assertThat(dryRunAs(server, "ordo-acl-cluster-check", "CLUSTER", "SLOTS")).isEqualTo("OK");
        assertThat(dryRunAs(server, "ordo-acl-cluster-check", "CLUSTER", "NODES")).isEqualTo("OK");
        assertThat(dryRunAs(server, "ordo-acl-cluster-check", "CLUSTER", "FORGET", "x")).contains("no permissions");
        assertThat(dryRunAs(server, "ordo-acl-cluster-check", "CLIENT", "KILL", "ID", "1")).contains("no permissions");
    }

    @Test
    void docs_security_shows_the_rules_exactly() throws IOException {
        String security = Files.readString(projectRoot().resolve("docs/security.md"));

        assertThat(security).contains("ACL SETUSER ordo on >PASSWORD " + String.join(" ", RedisAcl.rules(false)));
        assertThat(security).contains(String.join(" ", RedisAcl.CLUSTER_COMMANDS.stream().map(c -> "+" + c).toList()));
    }

    private static void setUser(RedisServer server, String user, List<String> rules) {
        List<String> command = new ArrayList<>(List.of("ACL", "SETUSER", user, "on", ">secret"));
        command.addAll(rules);
        server.command(command.toArray(String[]::new));
    }

    private static String dryRun(RedisServer server, String... command) {
        return dryRunAs(server, "ordo-acl-check", command);
    }

    private static String dryRunAs(RedisServer server, String user, String... command) {
        List<String> arguments = new ArrayList<>(List.of("ACL", "DRYRUN", user));
        arguments.addAll(List.of(command));
        return String.valueOf(server.command(arguments.toArray(String[]::new)));
    }

    private static Path projectRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("docs/semantics.md"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("not inside the Ordo project: no docs/semantics.md above " + Path.of(""));
        }
        return dir;
    }
}
