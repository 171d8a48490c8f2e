package io.ordo.redis.testing;

import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Module;
import io.ordo.domain.ConsumerId;
import io.ordo.domain.GroupName;
import io.ordo.domain.InvalidInputException;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.ports.Clock;
import io.ordo.ports.QueueCapacityException;
import io.ordo.ports.QueueDataException;
import io.ordo.ports.QueueUnavailableException;
import io.ordo.ports.Rejection;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.redis.KeySchema;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * What only a Redis backend can get wrong: faults of the server (scripts flushed, server gone, full,
 * foreign keys), the key schema, blocking consume on real time, connection options and wiring. A
 * backend's test extends this and supplies its factory and Guice module; the contract itself is
 * the TaskStoreCompatibilityKit's.
 */
@ExtendWith(RedisServerExtension.class)
public abstract class RedisBackendKit {
    private static final ConsumerId WORKER = ConsumerId.of("worker-1");

    /** The backend's store factory. */
    protected abstract RedisTaskStoreFactory createFactory(RedisOptions options);

    /** The backend's Guice module, on the system clock. */
    protected abstract Module queueModule(RedisOptions options);

    /** The backend's Guice module, binding the clock given. */
    protected abstract Module queueModule(RedisOptions options, Clock clock);

    private static QueueName freshQueue() {
        return QueueName.of("kit-" + UUID.randomUUID());
    }

    private static NewTask task(String partition, String id) {
        return NewTask.builder(Partition.of(partition), ("payload of " + id).getBytes(StandardCharsets.UTF_8))
                .id(id).build();
    }

    private static List<NewTask> tasks(String partition, int count) {
        return IntStream.range(0, count).mapToObj(i -> task(partition, partition + "-" + i)).toList();
    }

    @Nested
    class Faults {
        @Test
        void functions_flushed_mid_run_are_loaded_again_transparently(RedisServer server) {
            try (RedisTaskStoreFactory factory = createFactory(RedisOptions.create(server.uri()))) {
                TaskStore store = factory.forQueue(freshQueue());
                store.publish(tasks("p", 3));
                server.command("FUNCTION", "FLUSH");
                List<Lease> leases = store.consume(WORKER, 3, Duration.ZERO);
                server.command("FUNCTION", "FLUSH");

                assertThat(leases).hasSize(3);
                assertThat(store.ack(WORKER, leases.stream().map(Lease::id).toList()).values())
                        .allSatisfy(outcome -> assertThat(outcome.name()).isEqualTo("ACKED"));
                assertThat(store.stats().ackedTotal()).isEqualTo(3);
            }
        }

        @Test
        void a_server_that_is_down_gives_a_retryable_error_naming_its_address() {
            RedisServer doomed = RedisServer.start();
            RedisOptions options = RedisOptions.builder(doomed.uri()).commandTimeout(Duration.ofSeconds(2))
                    .connectTimeout(Duration.ofSeconds(1)).retryBackoff(Duration.ofMillis(10)).build();
            try (RedisTaskStoreFactory factory = createFactory(options)) {
                TaskStore store = factory.forQueue(freshQueue());
                store.publish(tasks("p", 1));
                doomed.close();

                assertThatThrownBy(() -> store.publish(tasks("p", 1)))
                        .isInstanceOf(QueueUnavailableException.class)
                        .hasMessageContaining("127.0.0.1:" + doomed.port());
                assertThatThrownBy(() -> store.consume(WORKER, 1, Duration.ofMillis(100)))
                        .isInstanceOf(QueueUnavailableException.class)
                        .hasMessageContaining("127.0.0.1:" + doomed.port());
            } finally {
                doomed.close();
            }
        }

        @Test
        void a_server_that_never_answered_gives_the_same_error() {
            RedisServer gone = RedisServer.start();
            gone.close();
            RedisOptions options = RedisOptions.builder(gone.uri()).connectTimeout(Duration.ofSeconds(1))
                    .retryBackoff(Duration.ofMillis(10)).build();
            try (RedisTaskStoreFactory factory = createFactory(options)) {
                assertThatThrownBy(() -> factory.forQueue(freshQueue()).stats())
                        .isInstanceOf(QueueUnavailableException.class)
                        .hasMessageContaining("127.0.0.1:" + gone.port());
            }
        }

        @Test
        void a_queue_key_of_the_wrong_type_gives_an_error_naming_the_key(RedisServer server) {
            QueueName queue = freshQueue();
            String tasksKey = KeySchema.of(queue).key("tasks");
            server.command("SET", tasksKey, "someone else's data");
            try (RedisTaskStoreFactory factory = createFactory(RedisOptions.create(server.uri()))) {
                TaskStore store = factory.forQueue(queue);

                assertThatThrownBy(() -> store.publish(tasks("p", 1)))
                        .isInstanceOf(QueueDataException.class)
                        .hasMessageContaining(tasksKey)
                        .hasMessageContaining("wrong type");
                assertThatThrownBy(() -> store.get(io.ordo.domain.TaskId.of("x")))
                        .isInstanceOf(QueueDataException.class)
                        .hasMessageContaining(tasksKey);
            }
        }

        @Test
        void a_script_error_names_the_script_file_and_line_it_came_from(RedisServer server) throws Exception {
            QueueName queue = freshQueue();
            server.command("SET", KeySchema.of(queue).key("tasks"), "someone else's data");
            try (RedisTaskStoreFactory factory = createFactory(RedisOptions.create(server.uri()))) {
                TaskStore store = factory.forQueue(queue);

                Throwable error = catchThrowable(() -> store.publish(tasks("p", 1)));

                assertThat(error).isInstanceOf(QueueDataException.class);
                Matcher place = Pattern.compile("@([a-z_]+\\.lua):(\\d+)")
                        .matcher(error.getMessage());
                assertThat(place.find()).as("a file and line in: " + error.getMessage()).isTrue();
                assertThat(error.getMessage()).doesNotContain("user_function");
                try (var in = KeySchema.class.getResourceAsStream("/io/ordo/redis/scripts/" + place.group(1))) {
                    List<String> lines = new String(in.readAllBytes(), StandardCharsets.UTF_8)
                            .lines().toList();
                    assertThat(lines.get(Integer.parseInt(place.group(2)) - 1)).as("the line named")
                            .contains("error(");
                }
            }
        }

        @Test
        void a_publish_over_maxmemory_is_refused_and_writes_nothing_while_draining_still_works() {
            try (RedisServer server = RedisServer.start();
                 RedisTaskStoreFactory factory = createFactory(RedisOptions.create(server.uri()))) {
                TaskStore store = factory.forQueue(freshQueue());
                store.publish(tasks("before", 2));
                long keysBefore = (Long) server.command("DBSIZE");
                server.command("CONFIG", "SET", "maxmemory", "1");

                assertThatThrownBy(() -> store.publish(tasks("p", 100)))
                        .isInstanceOf(QueueCapacityException.class)
                        .hasMessageContaining("maxmemory")
                        .hasMessageContaining("127.0.0.1:" + server.port());
                List<Lease> drained = store.consume(WORKER, 10, Duration.ZERO);
                store.ack(WORKER, drained.stream().map(Lease::id).toList());
                server.command("CONFIG", "SET", "maxmemory", "0");

                assertThat(drained).hasSize(2);
                assertThat(store.stats().publishedTotal()).isEqualTo(2);
                assertThat(store.stats().ackedTotal()).isEqualTo(2);
                assertThat(store.get(io.ordo.domain.TaskId.of("p-0"))).isEmpty();
                assertThat((Long) server.command("DBSIZE")).isLessThanOrEqualTo(keysBefore);
            }
        }
    }

    @Nested
    class KnownQueues {
        @Test
        void every_queue_holding_data_is_listed_once_by_name_and_a_sharded_queue_under_its_own_name() {
            try (RedisServer server = RedisServer.start();
                 RedisTaskStoreFactory factory = createFactory(RedisOptions.create(server.uri()))) {
                factory.forQueue(QueueName.of("b-tasks")).publish(tasks("p", 3));
                factory.forQueue(QueueName.of("a-heartbeat")).heartbeat(WORKER, Duration.ofMinutes(1));
                factory.forQueue(QueueName.of("c-block")).blockPartition(Partition.of("p"), Duration.ofMinutes(1));
                TaskStore onlyRead = factory.forQueue(QueueName.of("d-only-read"));
                onlyRead.stats();
                onlyRead.inspect(10);
                for (int shard = 0; shard < 3; shard++) {
                    factory.forShard(QueueName.of("e-sharded"), shard).publish(tasks("p" + shard, 1));
                }
                server.command("SET", "ordo:{not a queue}:meta", "foreign");
                server.command("SET", "other:{f-foreign}:meta", "foreign");

                assertThat(factory.knownQueues()).containsExactly(QueueName.of("a-heartbeat"), QueueName.of("b-tasks"),
                        QueueName.of("c-block"), QueueName.of("e-sharded"));
            }
        }

        @Test
        void a_queue_stays_known_after_its_tasks_are_gone_as_its_counters_remain() {
            try (RedisServer server = RedisServer.start();
                 RedisTaskStoreFactory factory = createFactory(RedisOptions.create(server.uri()))) {
                assertThat(factory.knownQueues()).isEmpty();
                TaskStore store = factory.forQueue(QueueName.of("drained"));
                store.publish(tasks("p", 2));
                List<Lease> leases = store.consume(WORKER, 2, Duration.ZERO);
                store.ack(WORKER, leases.stream().map(Lease::id).toList());

                assertThat(factory.knownQueues()).containsExactly(QueueName.of("drained"));
            }
        }
    }

    @Nested
    class Keys {
        @Test
        void user_chosen_text_never_names_a_key_of_its_own(RedisServer server) {
            QueueName queue = freshQueue();
            KeySchema schema = KeySchema.of(queue);
            List<String> hostile = List.of("meta", "tasks", "base:0", schema.key("tasks"), schema.prefix() + "ready",
                    "}:x", "{" + queue.value() + "}", "pr:00", "pr=00", "=meta", "c:61", "*", "");
            try (RedisTaskStoreFactory factory = createFactory(RedisOptions.create(server.uri()))) {
                TaskStore store = factory.forQueue(queue);
                List<NewTask> batch = new ArrayList<>();
                for (String text : hostile) {
                    if (!text.isEmpty()) {
                        batch.add(task(text, text));
                        batch.add(task("!" + text, "!" + text));
                    }
                }
                store.publish(batch);
                List<Lease> leases = store.consume(ConsumerId.of(schema.key("meta")), 5, Duration.ZERO);
                store.heartbeat(ConsumerId.of("base:0"), Duration.ofSeconds(5));

                @SuppressWarnings("unchecked")
                List<String> keys = (List<String>) server.command("KEYS", schema.prefix() + "*");
                Pattern allowed = Pattern.compile(Pattern.quote(schema.prefix())
                        + "((meta|tasks|ready|delayed|wake|blocked|turns|parked|stale|locks|consumers|dead|acked"
                        + "|readyat|readyat-count|signal|heartbeats|lock-since)|(pr|pz|pf|f)(:[0-9a-f]+|=[0-9A-Za-z_.!-]+))");
                assertThat(leases).hasSize(5);
                assertThat(keys).isNotEmpty().allSatisfy(key -> assertThat(key).matches(allowed));
                assertThat(store.stats().ready() + store.stats().inFlight()).isEqualTo(batch.size());
            }
        }

        @Test
        void a_partitions_list_is_the_key_the_schema_names_for_plain_and_other_codes(RedisServer server) {
            QueueName queue = freshQueue();
            KeySchema schema = KeySchema.of(queue);
            List<String> codes = List.of("p-1", "!acct_42.eu", "a:b", "\u00e4", "x=y");
            try (RedisTaskStoreFactory factory = createFactory(RedisOptions.create(server.uri()))) {
                TaskStore store = factory.forQueue(queue);
                store.publish(codes.stream().map(code -> task(code, "id-" + code)).toList());

                for (String code : codes) {
                    assertThat(server.command("LLEN", schema.partitionRunKey(code))).as(code).isEqualTo(1L);
                }
            }
        }

        @Test
        void cancelled_and_reordered_tasks_leave_nothing_behind_once_their_partition_drains(RedisServer server) {
            QueueName queue = freshQueue();
            KeySchema schema = KeySchema.of(queue);
            try (RedisTaskStoreFactory factory = createFactory(RedisOptions.create(server.uri()))) {
                TaskStore store = factory.forQueue(queue);
                store.publish(List.of(task("p", "a"), task("p", "b"), task("p", "c"), task("p", "d"), task("p", "e")));
                store.cancel(List.of(io.ordo.domain.TaskId.of("b"), io.ordo.domain.TaskId.of("d")));
                store.publish(List.of(NewTask.builder(Partition.of("p"), new byte[] {1}).id("urgent").priority(5).build()));

                List<Lease> leases = store.consume(WORKER, 10, Duration.ZERO);
                store.ack(WORKER, leases.stream().map(Lease::id).toList());

                assertThat(leases).extracting(lease -> lease.id().value()).containsExactly("urgent", "a", "c", "e");
                @SuppressWarnings("unchecked")
                List<String> keys = (List<String>) server.command("KEYS", schema.prefix() + "*");
                assertThat(keys).allSatisfy(key -> assertThat(key).doesNotContain(":pr", ":pz", ":pf", ":f"));
                assertThat(MetaCounters.read(server, schema, "stale")).isZero();
                assertThat(MetaCounters.read(server, schema, "rest")).isZero();
            }
        }

        /**
         * A task published to consumer groups is stored once, shared; it goes when the last group holding it
         * is done with it, by an ack or by the group's deletion, and a deleted group leaves no key behind.
         */
        @Test
        void a_shared_record_goes_with_its_last_holder_and_a_deleted_group_leaves_no_key(RedisServer server) {
            QueueName queue = freshQueue();
            KeySchema schema = KeySchema.of(queue);
            GroupName billing = GroupName.of("billing");
            GroupName notify = GroupName.of("notify");
            try (RedisTaskStoreFactory factory = createFactory(RedisOptions.create(server.uri()))) {
                TaskStore store = factory.forQueue(queue);
                store.createGroup(billing);
                store.createGroup(notify);
                store.publish(List.of(task("p", "a"), task("!o", "b"), task("p", "c")));
                String shared = schema.prefix() + "shared";
                assertThat(server.command("HLEN", shared)).as("one record per task, whatever the groups").isEqualTo(3L);
                assertThat(server.command("HLEN", schema.forGroup(billing).key("tasks")))
                        .as("a group keeps no record of a task it has not changed").isEqualTo(0L);

                TaskStore inBilling = factory.forGroup(queue, billing);
                List<Lease> leases = inBilling.consume(WORKER, 10, Duration.ZERO);
                inBilling.ack(WORKER, leases.stream().map(Lease::id).toList());
                assertThat(server.command("HLEN", shared)).as("notify still holds them").isEqualTo(3L);

                TaskStore inNotify = factory.forGroup(queue, notify);
                List<Lease> notified = inNotify.consume(WORKER, 1, Duration.ZERO);
                inNotify.ack(WORKER, notified.stream().map(Lease::id).toList());
                assertThat(server.command("HLEN", shared)).as("the one acked by both is gone").isEqualTo(2L);

                assertThat(store.deleteGroup(notify)).isTrue();
                assertThat(store.deleteGroup(billing)).isTrue();
                @SuppressWarnings("unchecked")
                List<String> keys = (List<String>) server.command("KEYS", schema.prefix() + "*");
                assertThat(keys).as("no group key, no shared record, no retiring bit")
                        .allSatisfy(key -> assertThat(key).doesNotContain(":g=", "shared", "retiring"));
            }
        }

        /**
         * The counters are one packed value of {@code meta}; a counter added later goes last, so a queue written
         * before it existed has a shorter value, read with the defaults of what it lacks and written whole after.
         */
        @Test
        void counters_written_before_the_dropped_dead_letters_were_counted_are_read_and_carried_on(RedisServer server) {
            QueueName queue = freshQueue();
            KeySchema schema = KeySchema.of(queue);
            try (RedisTaskStoreFactory factory = createFactory(RedisOptions.create(server.uri()))) {
                TaskStore store = factory.forQueue(queue);
                store.publish(tasks("p", 3));
                List<Lease> leases = store.consume(WORKER, 2, Duration.ZERO);
                store.fail(WORKER, leases.stream().map(Lease::id).toList(), "broken");
                // the value as the library wrote it before deadLettersDroppedTotal: its first 14 counters
                server.command("EVAL", "local v = redis.call('HGET', KEYS[1], 'counters') "
                        + "return redis.call('HSET', KEYS[1], 'counters', string.sub(v, 1, 14 * 8))", "1", schema.key("meta"));

                assertThat(store.stats().publishedTotal()).isEqualTo(3);
                assertThat(store.stats().deadLetteredTotal()).isEqualTo(2);
                assertThat(store.stats().deadLettersDroppedTotal()).isZero();
                store.configure(store.settings().toBuilder().deadLetterMaxCount(1).build());
                assertThat(store.trimDeadLetters()).isEqualTo(1);

                assertThat(store.stats().deadLettersDroppedTotal()).isEqualTo(1);
                assertThat(store.stats().deadLetteredTotal()).isEqualTo(2);
                assertThat(store.stats().ready()).isEqualTo(1);
                assertThat(MetaCounters.read(server, schema, "deadLettersDroppedTotal")).isEqualTo(1);
                assertThat(store.consume(WORKER, 10, Duration.ZERO)).as("the queue works on").hasSize(1);
            }
        }

        /**
         * A dead letter the caps delete goes with its record (and a group's bit in a shared one), also when it
         * died in the same call: reclaim keeps the records it writes aside until its end.
         */
        @Test
        void dead_letters_the_caps_delete_leave_no_record_behind(RedisServer server) throws InterruptedException {
            QueueName queue = freshQueue();
            KeySchema schema = KeySchema.of(queue);
            GroupName billing = GroupName.of("billing");
            try (RedisTaskStoreFactory factory = createFactory(RedisOptions.create(server.uri()))) {
                TaskStore store = factory.forQueue(queue);
                store.createGroup(billing);
                store.configure(store.settings().toBuilder().maxAttempts(1).deadLetterMaxCount(1).build());
                store.publish(List.of(task("p", "a"), task("p", "b"), task("p", "c")));
                TaskStore inBilling = factory.forGroup(queue, billing);
                assertThat(inBilling.consume(WORKER, 3, Duration.ZERO)).hasSize(3);
                inBilling.heartbeat(WORKER, Duration.ofMillis(1));
                Thread.sleep(20);

                assertThat(inBilling.reclaim().deadLettered()).isEqualTo(3);

                assertThat(inBilling.deadLetters(0, 10).items()).extracting(dead -> dead.id().value()).containsExactly("c");
                assertThat(server.command("HLEN", schema.forGroup(billing).key("tasks"))).as("c's record alone")
                        .isEqualTo(1L);
                assertThat(server.command("HLEN", schema.prefix() + "shared")).as("a and b had no other holder")
                        .isEqualTo(1L);
                assertThat(inBilling.get(io.ordo.domain.TaskId.of("a"))).isEmpty();
                assertThat(inBilling.stats().deadLettersDroppedTotal()).isEqualTo(2);
            }
        }

        @Test
        void every_key_of_a_queue_shares_its_hash_tag(RedisServer server) {
            QueueName queue = freshQueue();
            try (RedisTaskStoreFactory factory = createFactory(RedisOptions.create(server.uri()))) {
                TaskStore store = factory.forQueue(queue);
                store.publish(List.of(task("!ordered", "a"), task("regular", "b")));
                store.consume(WORKER, 2, Duration.ZERO);

                @SuppressWarnings("unchecked")
                List<String> keys = (List<String>) server.command("KEYS", "*" + queue.value() + "*");
                assertThat(keys).allSatisfy(key -> assertThat(key).startsWith("ordo:{" + queue.value() + "}:"));
            }
        }
    }

    @Nested
    class BlockingConsume {
        @Test
        void a_waiting_consumer_wakes_within_milliseconds_of_a_publish(RedisServer server) throws Exception {
            try (RedisTaskStoreFactory factory = createFactory(RedisOptions.create(server.uri()))) {
                TaskStore store = factory.forQueue(freshQueue());
                store.consume(WORKER, 1, Duration.ZERO); // scripts loaded, connections open
                CompletableFuture<Long> tookAt = CompletableFuture.supplyAsync(() -> {
                    List<Lease> leases = store.consume(WORKER, 1, Duration.ofSeconds(10));
                    assertThat(leases).hasSize(1);
                    return System.nanoTime();
                });
                Thread.sleep(300);
                long publishedAt = System.nanoTime();
                store.publish(tasks("p", 1));

                long latencyMillis = TimeUnit.NANOSECONDS.toMillis(tookAt.get(10, TimeUnit.SECONDS) - publishedAt);
                assertThat(latencyMillis).isLessThan(250);
            }
        }

        @Test
        void a_waiting_consumer_wakes_when_a_delayed_task_falls_due(RedisServer server) throws Exception {
            try (RedisTaskStoreFactory factory = createFactory(RedisOptions.create(server.uri()))) {
                TaskStore store = factory.forQueue(freshQueue());
                store.publish(List.of(NewTask.builder(Partition.of("p"), new byte[] {1}).id("later")
                        .delay(Duration.ofMillis(400)).build()));
                long start = System.nanoTime();

                List<Lease> leases = store.consume(WORKER, 1, Duration.ofSeconds(10));

                long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                assertThat(leases).extracting(lease -> lease.id().value()).containsExactly("later");
                assertThat(waitedMillis).isBetween(300L, 1_000L);
            }
        }

        @Test
        void a_waiting_consumer_wakes_when_a_task_rejected_meanwhile_falls_due(RedisServer server) throws Exception {
            try (RedisTaskStoreFactory factory = createFactory(RedisOptions.create(server.uri()))) {
                TaskStore store = factory.forQueue(freshQueue());
                ConsumerId other = ConsumerId.of("other-worker");
                store.publish(tasks("p", 1));
                List<Lease> first = store.consume(other, 1, Duration.ZERO);
                // Waits on an empty queue with no due time in sight: only a wake-up can shorten its nap.
                CompletableFuture<Long> tookAt = CompletableFuture.supplyAsync(() -> {
                    List<Lease> leases = store.consume(WORKER, 1, Duration.ofSeconds(10));
                    assertThat(leases).hasSize(1);
                    return System.nanoTime();
                });
                Thread.sleep(300);
                long rejectedAt = System.nanoTime();
                store.reject(other, List.of(first.get(0).id()), Rejection.retryAfter(Duration.ofMillis(200), "again"));

                long waitedMillis = TimeUnit.NANOSECONDS.toMillis(tookAt.get(10, TimeUnit.SECONDS) - rejectedAt);
                assertThat(waitedMillis).isBetween(150L, 1_000L);
            }
        }

        @Test
        void an_idle_consumer_sends_only_a_few_commands_per_second(RedisServer server) {
            try (RedisTaskStoreFactory factory = createFactory(RedisOptions.create(server.uri()))) {
                TaskStore store = factory.forQueue(freshQueue());
                store.consume(WORKER, 1, Duration.ZERO);
                long before = commandsProcessed(server);

                List<Lease> leases = store.consume(WORKER, 1, Duration.ofSeconds(2));

                long commands = commandsProcessed(server) - before;
                assertThat(leases).isEmpty();
                assertThat(commands).as("commands in 2 s of waiting").isLessThanOrEqualTo(6);
            }
        }

        @Test
        void a_consumer_waiting_on_a_paused_queue_whose_task_fell_due_sends_only_a_few_commands(RedisServer server) {
            try (RedisTaskStoreFactory factory = createFactory(RedisOptions.create(server.uri()))) {
                TaskStore store = factory.forQueue(freshQueue());
                store.pause();
                store.publish(List.of(NewTask.builder(Partition.of("p"), new byte[] {1}).id("due-soon")
                        .delay(Duration.ofMillis(100)).build()));
                long before = commandsProcessed(server);

                List<Lease> leases = store.consume(WORKER, 1, Duration.ofSeconds(2));

                long commands = commandsProcessed(server) - before;
                assertThat(leases).isEmpty();
                assertThat(commands).as("commands in 2 s of waiting on a paused queue").isLessThanOrEqualTo(8);
            }
        }

        /** Commands clients sent (functions and waits), not the calls functions make inside. */
        private long commandsProcessed(RedisServer server) {
            String info = (String) server.command("INFO", "commandstats");
            return info.lines()
                    .filter(line -> line.startsWith("cmdstat_fcall:") || line.startsWith("cmdstat_blpop:"))
                    // "calls=" itself, not "rejected_calls=" or "failed_calls=" further on
                    .mapToLong(line -> Long.parseLong(line.replaceAll("^[a-z_]+:calls=(\\d+),.*", "$1")))
                    .sum();
        }
    }

    @Nested
    class Connecting {
        @Test
        void the_module_opens_no_connection_and_its_factory_works_once_asked(RedisServer server) {
            long clientsBefore = connectedClients(server);
            Injector injector = Guice.createInjector(queueModule(RedisOptions.create(server.uri())));
            TaskStoreFactory factory = injector.getInstance(TaskStoreFactory.class);
            try {
                assertThat(connectedClients(server)).isEqualTo(clientsBefore);
                TaskStore store = factory.forQueue(freshQueue());
                store.publish(tasks("p", 1));
                assertThat(store.stats().ready()).isEqualTo(1);
                assertThat(injector.getInstance(TaskStoreFactory.class)).isSameAs(factory);
            } finally {
                factory.close();
            }
        }

        @Test
        void the_module_binds_the_system_clock_unless_given_one(RedisServer server) {
            RedisOptions options = RedisOptions.create(server.uri());
            Clock given = () -> 42L;

            long before = System.currentTimeMillis();
            long bound = Guice.createInjector(queueModule(options)).getInstance(Clock.class).millis();
            long after = System.currentTimeMillis();

            assertThat(bound).isBetween(before, after);
            assertThat(Guice.createInjector(queueModule(options, given)).getInstance(Clock.class)).isSameAs(given);
        }

        @Test
        void the_module_refuses_a_missing_clock_naming_it(RedisServer server) {
            assertThatThrownBy(() -> queueModule(RedisOptions.create(server.uri()), null))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageStartingWith("clock:");
        }

        @Test
        void an_acl_user_password_and_database_from_the_uri_are_used() {
            try (RedisServer server = RedisServer.start()) {
                server.command("ACL", "SETUSER", "ordo-user", "on", ">s3cret:@/", "~*", "&*", "+@all");
                String uri = "redis://ordo-user:" + "s3cret%3A%40%2F" + "@127.0.0.1:" + server.port() + "/3";
                try (RedisTaskStoreFactory factory = createFactory(RedisOptions.create(uri))) {
                    TaskStore store = factory.forQueue(freshQueue());
                    store.publish(tasks("p", 1));
                    assertThat(store.stats().ready()).isEqualTo(1);
                }
                assertThat((String) server.command("INFO", "keyspace")).contains("db3:").doesNotContain("db0:");
                RedisOptions wrongPassword = RedisOptions.builder("redis://ordo-user:nope@127.0.0.1:" + server.port())
                        .retryBackoff(Duration.ofMillis(10)).build();
                try (RedisTaskStoreFactory factory = createFactory(wrongPassword)) {
                    assertThatThrownBy(() -> factory.forQueue(freshQueue()).stats())
                            .isInstanceOf(QueueUnavailableException.class)
                            .hasMessageContaining("127.0.0.1:" + server.port());
                }
            }
        }

        private long connectedClients(RedisServer server) {
            String info = (String) server.command("INFO", "clients");
            return info.lines().filter(line -> line.startsWith("connected_clients:")).findFirst()
                    .map(line -> Long.parseLong(line.substring(line.indexOf(':') + 1).trim())).orElseThrow();
        }
    }
}
