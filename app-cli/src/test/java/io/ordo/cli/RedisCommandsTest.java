package io.ordo.cli;

import io.ordo.redis.testing.RedisServer;
import io.ordo.redis.testing.RedisServerExtension;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** Every queue command on both Redis backends, against a private redis-server: state persists between commands. */
@ExtendWith(RedisServerExtension.class)
@Tag("full")
class RedisCommandsTest {
    @ParameterizedTest
    @ValueSource(strings = {"lettuce", "jedis"})
    void publish_get_cancel_pause_resume_work_and_the_dead_letter_commands(String backend, RedisServer redis) {
        Commands ordo = new Commands(backend, redis.uri(), "cli-" + UUID.randomUUID());

        assertThat(ordo.ok("publish", "--partition", "account-42", "--ordered", "--id", "deposit-1", "{\"cents\":100}").outLines())
                .containsExactly("created    deposit-1  !account-42",
                        "published 1 task to queue " + ordo.queue + ": 1 created, 0 duplicate");
        ordo.ok("publish", "--partition", "emails", "--id", "mail-1", "{}");
        ordo.ok("publish", "--partition", "emails", "--id", "mail-2", "{}");

        CliRun get = ordo.ok("get", "deposit-1");
        assertThat(get.outLines()).contains("id           deposit-1", "state        pending",
                "partition    !account-42  (ordered)", "attempts     0", "payload      {\"cents\":100}");
        ordo.ok("publish", "--partition", "accounts", "--id", "typed-1", "--type", "Deposit", "--max-attempts", "3", "{}");
        assertThat(ordo.ok("get", "typed-1").outLines()).contains("type         Deposit",
                "max attempts 3 (the task's own, in place of the queue's)");
        assertThat(ordo.ok("get", "deposit-1").outLines()).noneMatch(line -> line.startsWith("type")
                || line.startsWith("max attempts"));
        ordo.ok("cancel", "typed-1");
        CliRun missing = ordo.run("get", "nothing-here");
        assertThat(missing.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(missing.errLines()).containsExactly("ordo: no task nothing-here in queue " + ordo.queue);

        assertThat(ordo.ok("cancel", "mail-2", "nothing-here").outLines()).containsExactly(
                "cancelled  mail-2", "unknown    nothing-here", "cancelled 1 of 2 in queue " + ordo.queue);

        assertThat(ordo.ok("pause").outLines()).containsExactly("queue " + ordo.queue + " paused: it delivers nothing until resumed");
        assertThat(ordo.ok("stats").outLines()).contains("  paused               yes", "  ready                2")
                .noneMatch(line -> line.contains("cap") || line.contains("rate limit"));
        ordo.ok("settings", "--partition-concurrency", "2", "--partition-concurrency-override", "emails=1",
                "--queue-rate-limit", "100/1s");
        assertThat(ordo.ok("stats").outLines()).contains("  capped partitions    0", "  throttled partitions 0",
                "  partition cap        2", "    emails             1",
                "  queue cap            off", "  queue rate limit     100/1s:100", "  partition rate limit off");
        ordo.ok("settings", "--partition-concurrency", "0", "--partition-concurrency-override", "emails=0",
                "--queue-rate-limit", "off");
        assertThat(ordo.ok("resume").outLines()).containsExactly("queue " + ordo.queue + " resumed");

        CliRun work = ordo.ok("work", "--work-time", "0ms", "--failure-rate", "1", "--retry-delay", "1ms",
                "--retry-max-delay", "5ms", "--until-empty");
        assertThat(work.errLines()).last().asString().contains("0 processed, 8 retried, 2 dead-lettered");

        CliRun dead = ordo.ok("dead", "list");
        assertThat(dead.outLines()).hasSize(3);
        assertThat(dead.outLines().subList(0, 2)).as("oldest first: in the order they died")
                .anySatisfy(line -> assertThat(line).startsWith("deposit-1  !account-42  attempts 5  died "))
                .anySatisfy(line -> assertThat(line).startsWith("mail-1  emails  attempts 5  died "))
                .allSatisfy(line -> assertThat(line)
                        .endsWith("io.ordo.cli.work.DemoHandler$SimulatedFailure: simulated failure (--failure-rate 1.0)"));
        assertThat(dead.outLines().get(2)).isEqualTo("queue " + ordo.queue + ": 2 dead letters, showing 1..2");

        assertThat(ordo.ok("dead", "redrive", "deposit-1", "nothing-here").outLines()).containsExactly(
                "redriven  deposit-1", "unknown   nothing-here", "redrove 1 of 2 in queue " + ordo.queue);
        assertThat(ordo.ok("get", "deposit-1").outLines()).contains("state        pending", "attempts     0");
        assertThat(ordo.ok("dead", "purge", "--all").outLines()).containsExactly("purged 1 dead letters of queue " + ordo.queue);
        assertThat(ordo.ok("dead", "list").outLines()).containsExactly("queue " + ordo.queue + ": 0 dead letters");

        CliRun drained = ordo.ok("work", "--work-time", "0ms", "--until-empty", "--log-tasks");
        assertThat(drained.outLines()).containsExactly(
                "started              deposit-1  !account-42  attempt 1",
                "processed            deposit-1  !account-42  attempt 1");
        assertThat(ordo.ok("dead", "redrive", "--all").outLines()).containsExactly("redrove 0 dead letters of queue " + ordo.queue);
    }

    @ParameterizedTest
    @ValueSource(strings = {"lettuce", "jedis"})
    void redrive_and_purge_need_ids_or_all_but_not_both(String backend, RedisServer redis) {
        Commands ordo = new Commands(backend, redis.uri(), "cli-" + UUID.randomUUID());

        assertThat(ordo.run("dead", "purge").exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(ordo.run("dead", "redrive", "--all", "x").exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        CliRun bare = CliRun.of("dead");
        assertThat(bare.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(bare.errLines()).containsExactly("ordo: missing subcommand: list, redrive or purge (see 'ordo dead --help')");
    }

    @ParameterizedTest
    @ValueSource(strings = {"lettuce", "jedis"})
    void the_event_log_is_kept_on_request_printed_from_a_cursor_and_followed(String backend, RedisServer redis) {
        Commands ordo = new Commands(backend, redis.uri(), "cli-" + UUID.randomUUID());
        assertThat(ordo.ok("events").outLines()).containsExactly(
                "queue " + ordo.queue + " keeps no event log (see ordo settings --event-log-length)");

        assertThat(ordo.ok("settings", "--event-log-length", "10").outLines()).contains("  event log length     10");
        ordo.ok("publish", "--partition", "emails", "--id", "mail-1", "{}");
        ordo.ok("publish", "--partition", "emails", "--id", "mail-2", "{}");
        ordo.ok("work", "--work-time", "0ms", "--until-empty");
        ordo.ok("cancel", "mail-3-never-published");

        List<String> printed = ordo.ok("events", "--limit", "1").outLines();
        assertThat(printed).hasSize(2);
        assertThat(printed.get(0)).matches("1  \\S+Z  completed  emails  mail-[12]"); // (acked in either order)
        String cursor = printed.get(1).substring("next: ".length());
        List<String> rest = ordo.ok("events", "--after", cursor).outLines();
        assertThat(rest).hasSize(2);
        assertThat(rest.get(0)).matches("2  \\S+Z  completed  emails  mail-[12]")
                .doesNotEndWith(printed.get(0).substring(printed.get(0).length() - 6));
        assertThat(ordo.ok("events", "--follow", "--follow-for", "300ms", "--poll-interval", "50ms").outLines())
                .hasSize(2).allMatch(line -> line.contains("completed  emails  mail-"));
        CliRun bad = ordo.run("events", "--after", "not-a-cursor");
        assertThat(bad.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(bad.err()).contains("cursor");
    }

    /** Runs {@code ordo} commands against one queue on one backend. */
    @ParameterizedTest
    @ValueSource(strings = {"lettuce", "jedis"})
    void schedules_are_added_listed_replaced_and_removed(String backend, RedisServer redis) {
        Commands ordo = new Commands(backend, redis.uri(), "cli-" + UUID.randomUUID());

        assertThat(ordo.ok("schedule", "add", "--partition", "daily", "--cron", "0 9 * * 1-5", "--zone", "Europe/Berlin",
                "--misfire", "catch-up:3", "--header", "kind=report", "nightly", "{\"kind\":\"daily\"}").outLines())
                .containsExactly("created schedule nightly of queue " + ordo.queue);
        assertThat(ordo.ok("schedule", "add", "--partition", "pings", "--ordered", "--every", "5m",
                "--end", "2999-01-01T00:00:00Z", "ping", "{}").outLines())
                .containsExactly("created schedule ping of queue " + ordo.queue);
        assertThat(ordo.ok("schedule", "add", "--partition", "daily", "--cron", "0 10 * * *", "--priority", "4",
                "nightly", "{}").outLines()).containsExactly("replaced schedule nightly of queue " + ordo.queue);

        assertThat(ordo.ok("schedule", "list").outLines()).containsExactly(
                "nightly  cron '0 10 * * *' UTC  daily  priority 4  misfire skip  last slot none",
                "ping  every 5m  !pings  misfire skip  end 2999-01-01T00:00:00Z  last slot none",
                "queue " + ordo.queue + ": 2 schedules");

        assertThat(ordo.ok("schedule", "remove", "ping").outLines())
                .containsExactly("removed schedule ping of queue " + ordo.queue);
        CliRun missing = ordo.run("schedule", "remove", "ping");
        assertThat(missing.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(missing.errLines()).containsExactly("ordo: queue " + ordo.queue + " has no schedule ping");
        assertThat(ordo.ok("schedule", "list").outLines()).hasSize(2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"lettuce", "jedis"})
    void groups_are_created_listed_worked_on_and_deleted(String backend, RedisServer redis) {
        Commands ordo = new Commands(backend, redis.uri(), "cli-" + UUID.randomUUID());

        assertThat(ordo.ok("group", "list").outLines()).containsExactly("queue " + ordo.queue + " has no consumer groups");
        assertThat(ordo.ok("group", "create", "notify").outLines()).containsExactly(
                "group notify of queue " + ordo.queue + " created: it receives the tasks published from now on");
        ordo.ok("group", "create", "billing");
        assertThat(ordo.ok("group", "create", "billing").outLines()).containsExactly(
                "queue " + ordo.queue + " has a group billing already: nothing changed");
        assertThat(ordo.ok("group", "list").outLines()).containsExactly("billing", "notify");

        ordo.ok("publish", "--partition", "emails", "--id", "mail-1", "{}");
        assertThat(ordo.ok("get", "--group", "billing", "mail-1").outLines()).contains("state        pending");
        CliRun billing = ordo.ok("work", "--group", "billing", "--work-time", "0ms", "--until-empty", "--log-tasks");
        assertThat(billing.outLines()).containsExactly(
                "started              mail-1  emails  attempt 1",
                "processed            mail-1  emails  attempt 1");
        assertThat(ordo.run("get", "--group", "billing", "mail-1").exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(ordo.ok("get", "--group", "notify", "mail-1").outLines()).as("untouched by billing's work")
                .contains("state        pending");
        assertThat(ordo.run("get", "mail-1").exitCode()).as("the queue's own view receives nothing once it has groups")
                .isEqualTo(ExitCodes.NOT_FOUND);

        assertThat(ordo.ok("group", "create", "--from", "notify", "audit").outLines()).containsExactly(
                "group audit of queue " + ordo.queue + " created with the tasks waiting in notify: it receives the tasks"
                        + " published from now on");
        assertThat(ordo.ok("get", "--group", "audit", "mail-1").outLines()).as("notify's backlog")
                .contains("state        pending");
        CliRun noSuchGroup = ordo.run("group", "create", "--from", "nobody", "other");
        assertThat(noSuchGroup.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(noSuchGroup.err()).contains("nobody");
        ordo.ok("group", "delete", "audit");
        assertThat(ordo.ok("group", "delete", "notify").outLines()).containsExactly(
                "group notify of queue " + ordo.queue + " deleted");
        CliRun gone = ordo.run("group", "delete", "notify");
        assertThat(gone.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(gone.errLines()).containsExactly("ordo: queue " + ordo.queue + " has no group notify");
        CliRun stats = ordo.run("stats", "--group", "notify");
        assertThat(stats.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(stats.err()).contains("group").contains("notify");
        assertThat(ordo.ok("group", "list").outLines()).containsExactly("billing");
    }

    private record Commands(String backend, String uri, String queue) {
        CliRun run(String... args) {
            List<String> all = new ArrayList<>(List.of(args));
            int at = List.of("dead", "schedule", "group").contains(args[0]) ? 2 : 1;
            all.addAll(at, List.of("--backend", backend, "--redis", uri, "--queue", queue));
            return CliRun.of(all.toArray(String[]::new));
        }

        CliRun ok(String... args) {
            CliRun run = run(args);
            assertThat(run.exitCode()).as(String.join(" ", args) + ": " + run.err()).isEqualTo(ExitCodes.OK);
            return run;
        }
    }
}
