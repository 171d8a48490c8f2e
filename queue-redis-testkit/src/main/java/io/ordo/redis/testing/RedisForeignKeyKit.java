package io.ordo.redis.testing;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.GroupName;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.RateLimit;
import io.ordo.domain.Schedule;
import io.ordo.domain.TaskId;
import io.ordo.ports.QueueDataException;
import io.ordo.ports.Rejection;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import io.ordo.redis.KeySchema;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A key under a queue's prefix that something other than Ordo wrote, of another type than Ordo keeps there:
 * every operation that writes either does not touch it (and leaves it as it is), or fails with an error
 * naming the key before it writes anything. For each kind of key (the fixed ones, a partition's list, sorted set and in-flight set,
 * a consumer's holdings), planted as a string and as a collection of the wrong kind, every writing
 * operation runs on a queue with work for it to do, and the server's data is compared before and after.
 */
@ExtendWith(RedisServerExtension.class)
public abstract class RedisForeignKeyKit {
    /** The fixed kinds, as KeySchema and keys.lua list them, with the type Ordo keeps under each. */
    private static final Map<String, String> FIXED = Map.ofEntries(Map.entry("meta", "hash"),
            Map.entry("tasks", "hash"), Map.entry("ready", "zset"), Map.entry("delayed", "zset"),
            Map.entry("wake", "zset"), Map.entry("blocked", "zset"), Map.entry("turns", "hash"),
            Map.entry("parked", "hash"), Map.entry("stale", "hash"), Map.entry("locks", "hash"),
            Map.entry("consumers", "zset"), Map.entry("dead", "zset"), Map.entry("acked", "zset"),
            Map.entry("readyat", "zset"), Map.entry("readyat-count", "hash"), Map.entry("signal", "list"),
            Map.entry("heartbeats", "hash"), Map.entry("lock-since", "hash"));
    /** The fixed kinds of caps and rate limits: touched only while the queue has one. */
    private static final Map<String, String> LIMIT_KINDS = Map.of("inflight", "hash", "throttled", "zset");
    /** Caps and limits loose enough for the scene's work: each key of theirs is in use. */
    private static final QueueSettings LIMITED = QueueSettings.builder().partitionConcurrency(5).queueConcurrency(100)
            .queueRateLimit(RateLimit.of(1000, Duration.ofSeconds(1)))
            .partitionRateLimit(RateLimit.of(1000, Duration.ofSeconds(1))).build();
    private static final Partition REGULAR = Partition.of("p");
    private static final Partition ORDERED = Partition.of("!o");
    private static final ConsumerId WORKER = ConsumerId.of("worker-1");
    private static final ConsumerId OTHER = ConsumerId.of("worker-2");

    private RedisServer server;
    private RedisTaskStoreFactory factory;

    /** The backend's store factory. */
    protected abstract RedisTaskStoreFactory createFactory(RedisOptions options);

    @BeforeEach
    void connect(RedisServer server) {
        this.server = server;
        factory = createFactory(RedisOptions.create(server.uri()));
    }

    @AfterEach
    void closeClient() {
        factory.close();
    }

    /**
     * A queue with a dead letter, held regular and ordered tasks, waiting and delayed ones; its dead letters are
     * capped at one, so a task that dies deletes the scene's dead letter and the trim has caps to apply.
     */
    private final class Scene {
        final VirtualClock clock = new VirtualClock();
        final QueueName queue = QueueName.of("foreign-" + UUID.randomUUID());
        final KeySchema keys = KeySchema.of(queue);
        final TaskStore store = factory.forQueue(queue, clock);

        Scene() {
            this(false);
        }

        Scene(boolean limited) {
            store.configure((limited ? LIMITED : QueueSettings.DEFAULTS).toBuilder().deadLetterMaxCount(1).build());
            store.publish(List.of(task("dead-1", REGULAR)));
            store.fail(WORKER, ids(store.consume(WORKER, 1, Duration.ZERO)), "broken");
            store.publish(List.of(task("p-1", REGULAR), task("p-2", REGULAR), task("o-1", ORDERED),
                    task("o-2", ORDERED), NewTask.builder(REGULAR, bytes("d-1")).id("d-1")
                            .delay(Duration.ofHours(1)).build()));
            assertThat(ids(store.consume(WORKER, 10, Duration.ZERO))).extracting(TaskId::value)
                    .containsExactlyInAnyOrder("p-1", "p-2", "o-1", "o-2");
            store.publish(List.of(task("p-3", REGULAR), task("p-4", REGULAR), task("o-3", ORDERED)));
        }

        /**
         * Every key of the queue: its type and its serialized value; a hash's as its fields and values in field
         * order, as a hash table's serialized order changes with reads (Redis rehashes a growing table a step
         * at each lookup), which write nothing.
         */
        Map<String, String> data() {
            Map<String, String> data = new TreeMap<>();
            for (Object key : (List<?>) server.command("KEYS", keys.prefix() + "*")) {
                String name = (String) key;
                Object type = server.command("TYPE", name);
                data.put(name, type + " " + ("hash".equals(String.valueOf(type)) ? fields(name) : server.command("DUMP", name)));
            }
            return data;
        }

        /** The hash's fields and values, in hex (they are bytes), sorted. */
        private Object fields(String hash) {
            return server.command("EVAL", "local hex = function(s) return (string.gsub(s, '.', function(c) "
                    + "return string.format('%02x', string.byte(c)) end)) end "
                    + "local all, out = redis.call('HGETALL', KEYS[1]), {} "
                    + "for i = 1, #all, 2 do out[#out + 1] = hex(all[i]) .. '=' .. hex(all[i + 1]) end "
                    + "table.sort(out) return table.concat(out, ',')", "1", hash);
        }
    }

    private record Operation(String name, Consumer<Scene> run) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final List<Operation> WRITING_OPERATIONS = List.of(
            new Operation("publish", s -> s.store.publish(List.of(task("n-1", REGULAR), task("n-2", ORDERED)))),
            new Operation("consume", s -> s.store.consume(OTHER, 10, Duration.ZERO)),
            new Operation("ack and consume", s -> s.store.ackAndConsume(WORKER, List.of(TaskId.of("o-1"),
                    TaskId.of("p-1")), 10, Duration.ZERO)),
            new Operation("ack", s -> s.store.ack(WORKER, List.of(TaskId.of("p-1"), TaskId.of("o-1"),
                    TaskId.of("o-2")))),
            new Operation("reject", s -> s.store.reject(WORKER, List.of(TaskId.of("p-1"), TaskId.of("o-1")),
                    Rejection.rateLimited(Duration.ofSeconds(1), "again"))),
            new Operation("release", s -> s.store.release(WORKER, List.of(TaskId.of("p-1"), TaskId.of("o-1")))),
            new Operation("fail", s -> s.store.fail(WORKER, List.of(TaskId.of("p-1"), TaskId.of("o-1")), "no")),
            new Operation("reclaim", s -> {
                s.clock.advance(Duration.ofMinutes(5));
                s.store.reclaim();
            }),
            new Operation("cancel", s -> s.store.cancel(List.of(TaskId.of("p-3"), TaskId.of("d-1"),
                    TaskId.of("dead-1")))),
            new Operation("redrive", s -> s.store.redrive(List.of(TaskId.of("dead-1")))),
            new Operation("redrive all", s -> s.store.redriveAll()),
            new Operation("purge dead letters", s -> s.store.purgeDeadLetters(List.of(TaskId.of("dead-1")))),
            new Operation("purge all dead letters", s -> s.store.purgeAllDeadLetters()),
            new Operation("trim dead letters", s -> s.store.trimDeadLetters()),
            new Operation("block partition", s -> s.store.blockPartition(REGULAR, Duration.ofMinutes(1))),
            new Operation("unblock partition", s -> s.store.unblockPartition(REGULAR)),
            new Operation("heartbeat", s -> s.store.heartbeat(WORKER, Duration.ofMinutes(1))),
            new Operation("configure", s -> s.store.configure(QueueSettings.DEFAULTS)),
            new Operation("pause", s -> s.store.pause()),
            new Operation("resume", s -> s.store.resume()));

    @TestFactory
    List<DynamicTest> a_foreign_fixed_key_stops_a_writing_operation_that_meets_it_before_it_writes() {
        List<DynamicTest> tests = new ArrayList<>();
        FIXED.forEach((kind, type) -> {
            for (String foreign : wrongTypesFor(type)) {
                for (Operation operation : WRITING_OPERATIONS) {
                    tests.add(DynamicTest.dynamicTest(operation + " with " + kind + " a " + foreign,
                            () -> refusedUnchanged(scene -> scene.keys.key(kind), foreign, operation,
                                    mustMeet(kind, operation))));
                }
            }
        });
        return tests;
    }

    /**
     * A publish to a queue with consumer groups writes every group, and a configure of the queue's own store
     * sets every group: a foreign key of the last group stops either before it writes anything of the queue,
     * its own view and the other group included (docs/groups.md).
     */
    @TestFactory
    List<DynamicTest> a_foreign_key_of_one_consumer_group_stops_a_fan_out_before_it_writes_any_group() {
        List<Operation> fanningOut = WRITING_OPERATIONS.stream()
                .filter(operation -> List.of("publish", "configure").contains(operation.name())).toList();
        List<DynamicTest> tests = new ArrayList<>();
        FIXED.forEach((kind, type) -> {
            for (String foreign : wrongTypesFor(type)) {
                for (Operation operation : fanningOut) {
                    tests.add(DynamicTest.dynamicTest(operation + " with group b's " + kind + " a " + foreign,
                            () -> refusedUnchanged(scene -> {
                                scene.store.createGroup(GroupName.of("a"));
                                scene.store.createGroup(GroupName.of("b"));
                                return scene.keys.forGroup(GroupName.of("b")).key(kind);
                            }, foreign, operation, mustMeet(kind, operation)
                                    // a group's records: a publish writes none (the queue's shared ones)
                                    && !(operation.name().equals("publish") && kind.equals("tasks")))));
                }
            }
        });
        return tests;
    }

    /**
     * A publish to groups appends to their partitions' lists before anything else, unprobed: one list of the
     * last group being of another type, the appends already made to the other group's lists are undone.
     */
    @TestFactory
    List<DynamicTest> a_foreign_partition_list_of_one_group_undoes_the_appends_made_to_the_other() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String foreign : wrongTypesFor("list")) {
            tests.add(DynamicTest.dynamicTest("publish with group b's pr=p a " + foreign, () -> refusedUnchanged(scene -> {
                scene.store.createGroup(GroupName.of("a"));
                scene.store.createGroup(GroupName.of("b"));
                scene.store.publish(List.of(task("in-p", REGULAR), task("in-q", Partition.regular("q"))));
                return scene.keys.forGroup(GroupName.of("b")).prefix() + "pr=p";
            }, foreign, new Operation("publish", s -> s.store.publish(List.of(task("p-next", REGULAR),
                    task("q-next", Partition.regular("q"))))), true)));
        }
        return tests;
    }

    private static final List<Operation> SCHEDULE_OPERATIONS = List.of(
            new Operation("put schedule", s -> s.store.putSchedule(Schedule.builder("s", REGULAR, bytes("{}"))
                    .every(Duration.ofMinutes(1)).build())),
            new Operation("remove schedule", s -> s.store.removeSchedule("s")),
            new Operation("schedules", s -> s.store.schedules()),
            new Operation("fire due schedules", s -> s.store.fireDueSchedules()));

    @TestFactory
    List<DynamicTest> a_foreign_schedules_key_stops_every_schedule_operation_before_it_writes() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String foreign : wrongTypesFor("hash")) {
            for (Operation operation : SCHEDULE_OPERATIONS) {
                tests.add(DynamicTest.dynamicTest(operation + " with schedules a " + foreign,
                        () -> refusedUnchanged(scene -> scene.keys.prefix() + "schedules", foreign, operation, true)));
            }
        }
        return tests;
    }

    @TestFactory
    List<DynamicTest> with_caps_and_rate_limits_a_foreign_key_of_theirs_stops_every_writing_operation() {
        List<DynamicTest> tests = new ArrayList<>();
        LIMIT_KINDS.forEach((kind, type) -> {
            for (String foreign : wrongTypesFor(type)) {
                for (Operation operation : WRITING_OPERATIONS) {
                    tests.add(DynamicTest.dynamicTest(operation + " with " + kind + " a " + foreign,
                            () -> refusedUnchanged(true, scene -> scene.keys.key(kind), foreign, operation, true)));
                }
            }
        });
        return tests;
    }

    /**
     * `buckets` held the partitions' buckets before they joined `inflight`: only a change of limits touches it
     * (it deletes it), so only configure refuses a foreign one; every other operation leaves it be.
     */
    @TestFactory
    List<DynamicTest> with_caps_and_rate_limits_only_configure_meets_the_buckets_kept_before() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String foreign : wrongTypesFor("hash")) {
            for (Operation operation : WRITING_OPERATIONS) {
                tests.add(DynamicTest.dynamicTest(operation + " with buckets a " + foreign,
                        () -> refusedUnchanged(true, scene -> scene.keys.key("buckets"), foreign, operation,
                                operation.name().equals("configure"))));
            }
        }
        return tests;
    }

    @TestFactory
    List<DynamicTest> without_caps_or_rate_limits_no_operation_touches_their_keys() {
        List<DynamicTest> tests = new ArrayList<>();
        LIMIT_KINDS.forEach((kind, type) -> {
            for (Operation operation : WRITING_OPERATIONS) {
                if (operation.name().equals("configure")) {
                    continue; // (configuring limits is the one call that may)
                }
                tests.add(DynamicTest.dynamicTest(operation + " with " + kind + " a string", () -> {
                    Scene scene = new Scene();
                    String key = scene.keys.key(kind);
                    plant(key, "string");
                    operation.run().accept(scene);
                    assertThat((String) server.command("TYPE", key)).as("the foreign key").isEqualTo("string");
                }));
            }
        });
        return tests;
    }

    @TestFactory
    List<DynamicTest> a_foreign_partition_or_consumer_key_stops_an_operation_that_meets_it_before_it_writes() {
        List<DynamicTest> tests = new ArrayList<>();
        Map<String, String> kinds = Map.of("pr=p", "list", "pz=p", "zset", "pr=!o", "list", "pz=!o", "zset",
                "pf=!o", "zset", "f=worker-1", "hash");
        kinds.forEach((suffix, type) -> {
            for (String foreign : wrongTypesFor(type)) {
                for (Operation operation : WRITING_OPERATIONS) {
                    tests.add(DynamicTest.dynamicTest(operation + " with " + suffix + " a " + foreign,
                            () -> refusedUnchanged(scene -> scene.keys.prefix() + suffix, foreign, operation,
                                    false)));
                }
            }
        });
        return tests;
    }

    /**
     * Plants the foreign key, runs the operation: it fails naming the key with nothing changed, or (where
     * it need not touch the key, and {@code mustFail} is false) succeeds.
     */
    private void refusedUnchanged(java.util.function.Function<Scene, String> keyOf, String foreign,
                                  Operation operation, boolean mustFail) {
        refusedUnchanged(false, keyOf, foreign, operation, mustFail);
    }

    private void refusedUnchanged(boolean limited, java.util.function.Function<Scene, String> keyOf, String foreign,
                                  Operation operation, boolean mustFail) {
        Scene scene = new Scene(limited);
        String key = keyOf.apply(scene);
        plant(key, foreign);
        Map<String, String> before = scene.data();
        Throwable thrown = null;
        try {
            operation.run().accept(scene);
        } catch (RuntimeException e) {
            thrown = e;
        }
        if (thrown == null) {
            assertThat(mustFail).as(operation + " went on over " + key).isFalse();
            assertThat((String) server.command("TYPE", key)).as("the foreign key").isEqualTo(foreign);
            return;
        }
        assertThat(thrown).isInstanceOf(QueueDataException.class).hasMessageContaining(key)
                .hasMessageContaining("wrong type");
        assertThat(scene.data()).as("the queue's data after " + operation + " failed on " + key)
                .isEqualTo(before);
    }

    /**
     * Whether the operation must meet (and so refuse) a foreign key of this fixed kind: every writing
     * operation probes every fixed kind but those it never touches (docs/redis-design.md, "Keys of the
     * wrong type"), and a key it reads before writing fails it all the same.
     */
    private static boolean mustMeet(String kind, Operation operation) {
        return switch (operation.name()) {
            case "publish" -> !List.of("consumers", "heartbeats", "lock-since", "dead").contains(kind);
            case "consume" -> !List.of("dead", "acked").contains(kind);
            case "ack" -> !List.of("consumers", "heartbeats", "dead").contains(kind);
            case "ack and consume" -> !kind.equals("dead");
            default -> true;
        };
    }

    private static List<String> wrongTypesFor(String type) {
        return List.of("string", type.equals("hash") ? "zset" : "hash");
    }

    private void plant(String key, String type) {
        server.command("DEL", key);
        switch (type) {
            case "string" -> server.command("SET", key, "someone else's");
            case "hash" -> server.command("HSET", key, "someone", "else's");
            case "zset" -> server.command("ZADD", key, "1", "someone else's");
            default -> throw new IllegalArgumentException(type);
        }
    }

    private static NewTask task(String id, Partition partition) {
        return NewTask.builder(partition, bytes(id)).id(id).build();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static List<TaskId> ids(List<Lease> leases) {
        return leases.stream().map(Lease::id).toList();
    }
}
