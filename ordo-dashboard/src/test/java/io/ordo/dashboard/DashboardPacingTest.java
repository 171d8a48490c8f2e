package io.ordo.dashboard;

import com.google.inject.Guice;
import io.ordo.domain.ConsumerId;
import io.ordo.domain.GroupName;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.Priority;
import io.ordo.domain.QueueName;
import io.ordo.domain.TaskId;
import io.ordo.inmemory.InMemoryQueueModule;
import io.ordo.ports.Clock;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static io.ordo.dashboard.RawHttp.get;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a client asking the API in a loop costs the backend: the store calls are counted, whatever
 * parameters, queues and paths the client varies.
 */
class DashboardPacingTest {
    private static final QueueName QUEUE = QueueName.of("paced");
    /** Paced 20 times that: no second inspection within the test's requests. */
    private static final Duration INSPECTION_COST = Duration.ofMillis(200);

    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    private TaskStoreFactory stores;
    private DashboardServer server;

    @BeforeEach
    void start() {
        TaskStoreFactory real = Guice.createInjector(new InMemoryQueueModule(Clock.system())).getInstance(TaskStoreFactory.class);
        TaskStore store = real.forQueue(QUEUE);
        store.publish(List.of(task("a"), task("b")));
        store.consume(ConsumerId.of("c"), 2, Duration.ZERO);
        store.fail(ConsumerId.of("c"), List.of(TaskId.of("a")), "boom");
        stores = counting(real);
        server = DashboardServer.start(stores, "inmemory", new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                AccessGuard.readOnly(InetAddress.getLoopbackAddress()), List.of(), Duration.ofSeconds(5));
    }

    @AfterEach
    void stop() {
        server.close();
        stores.close();
    }

    @Test
    void asking_with_every_limit_gets_one_inspection_of_the_queue() throws IOException {
        long started = System.nanoTime();
        for (int limit = 1; limit <= DashboardApi.INSPECT_MAX; limit++) {
            String answer = get(server.port(), "/api/queues/paced?limit=" + limit, "");
            assertThat(answer).startsWith("HTTP/1.1 200").contains("\"busiestPartitions\"");
        }
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("the test stays within the pacing")
                .isLessThan(INSPECTION_COST.multipliedBy(InspectionPacer.COST_FACTOR));
        assertThat(count("inspect")).isEqualTo(1);
    }

    @Test
    void a_client_asking_in_a_loop_makes_a_bounded_number_of_backend_reads() throws IOException {
        long started = System.nanoTime();
        int refused = 0;
        int requests = 0;
        for (; requests < 600; requests++) {
            String path = switch (requests % 3) {
                case 0 -> "/api/overview";
                case 1 -> "/api/queues/paced/dead-letters?offset=" + requests;
                default -> "/api/queues/paced/task?id=a";
            };
            String answer = get(server.port(), path, "");
            if (answer.startsWith("HTTP/1.1 503")) {
                assertThat(answer).contains("at most " + DashboardHandler.BACKEND_READS_PER_SECOND + " times a second");
                refused++;
            } else {
                assertThat(answer).as(path).startsWith("HTTP/1.1 200");
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        int reads = count("stats") + count("deadLetters") + count("get");
        System.out.printf("%d requests in %.1f s: %d backend reads, %d refused%n", requests, seconds, reads, refused);
        // the sampler's own reads (one stats a round) come on top of the API's budget
        assertThat(reads).isLessThanOrEqualTo((int) (DashboardHandler.BACKEND_READS_PER_SECOND * (seconds + 1)) + 2);
        assertThat(count("stats")).as("the overview's statistics are reused").isLessThan(requests / 3);
    }

    @Test
    void the_groups_list_reads_each_groups_statistics_at_most_once_a_second() throws IOException {
        int groups = 5;
        for (int i = 0; i < groups; i++) {
            stores.forQueue(QUEUE).createGroup(GroupName.of("group-" + i));
        }
        long started = System.nanoTime();
        int requests = 100;
        for (int i = 0; i < requests; i++) {
            String path = i % 2 == 0 ? "/api/queues/paced/groups" : "/api/queues/paced?group=group-" + (i % groups);
            assertThat(get(server.port(), path, "")).as(path).startsWith("HTTP/1.1 200");
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("%d requests for groups in %.1f s: %d groups reads, %d stats of groups, %d inspections of groups%n",
                requests, seconds, count("groups"), count("group.stats"), count("group.inspect"));
        assertThat(count("groups")).as("one bounded read a list").isEqualTo(requests / 2);
        assertThat(count("group.stats")).as("each group's reading reused for a second, by the list and its page")
                .isLessThanOrEqualTo(groups * ((int) Math.ceil(seconds) + 1));
        assertThat(count("group.inspect")).as("the groups' pages paced as the queues' are").isLessThanOrEqualTo(
                1 + (int) (seconds * 1000 / (INSPECTION_COST.toMillis() * InspectionPacer.COST_FACTOR)));
    }

    @Test
    void queues_named_dot_and_dot_dot_open_fine() throws IOException {
        for (String name : List.of(".", "..")) {
            stores.forQueue(QueueName.of(name)).publish(List.of(task("in-" + name.length())));
            String segment = "~" + name;
            assertThat(get(server.port(), "/queues/" + segment, "")).startsWith("HTTP/1.1 200").contains("<html");
            assertThat(get(server.port(), "/api/queues/" + segment, "")).startsWith("HTTP/1.1 200")
                    .contains("\"name\":\"" + name + "\"").contains("\"ready\":1");
            assertThat(get(server.port(), "/api/queues/" + segment + "/task?id=in-" + name.length(), ""))
                    .startsWith("HTTP/1.1 200").contains("\"id\":\"in-" + name.length() + "\"");
            assertThat(DashboardApi.queueNamed(DashboardApi.segmentOf(QueueName.of(name)))).isEqualTo(QueueName.of(name));
        }
    }

    private int count(String method) {
        return calls.getOrDefault(method, new AtomicInteger()).get();
    }

    private static NewTask task(String id) {
        return new NewTask(TaskId.of(id), Partition.regular("p"), Priority.DEFAULT, "{}".getBytes(UTF_8), Duration.ZERO, Map.of());
    }

    /** The store with every call counted by method name, after {@code prefix}. */
    private TaskStore counted(TaskStore store, String prefix) {
        return (TaskStore) Proxy.newProxyInstance(TaskStore.class.getClassLoader(), new Class<?>[]{TaskStore.class},
                (proxy, method, arguments) -> {
                    calls.computeIfAbsent(prefix + method.getName(), name -> new AtomicInteger()).incrementAndGet();
                    if (method.getName().equals("inspect")) {
                        Thread.sleep(INSPECTION_COST.toMillis()); // a queue as costly to inspect as a big one on Redis
                    }
                    try {
                        return method.invoke(store, arguments);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** The factory with every call to a queue's store counted by method name, and to a group's as {@code group.}name. */
    private TaskStoreFactory counting(TaskStoreFactory real) {
        return new TaskStoreFactory() {
            @Override
            public TaskStore forQueue(QueueName queue) {
                return counted(real.forQueue(queue), "");
            }

            @Override
            public TaskStore forGroup(QueueName queue, GroupName group) {
                return counted(real.forGroup(queue, group), "group.");
            }

            @Override
            public List<QueueName> knownQueues() {
                return real.knownQueues();
            }

            @Override
            public void close() {
                real.close();
            }
        };
    }
}
