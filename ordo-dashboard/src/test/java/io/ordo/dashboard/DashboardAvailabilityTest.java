package io.ordo.dashboard;

import com.google.inject.Guice;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.Priority;
import io.ordo.domain.QueueName;
import io.ordo.domain.TaskId;
import io.ordo.inmemory.InMemoryQueueModule;
import io.ordo.lettuce.LettuceQueueModule;
import io.ordo.ports.Clock;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.testing.RedisServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.ordo.dashboard.RawHttp.get;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard keeps answering when its clients or its backend misbehave: connections that send
 * nothing or send a request a byte at a time, and a Redis that stops answering (SIGSTOP), cannot
 * keep it from serving its page and static files, and API reads fail with a clear error in seconds.
 */
@Tag("full")
class DashboardAvailabilityTest {
    private static final String TOKEN = "availability-token-0123456789";
    /** What "answers at once" means on a busy 2-core machine. */
    private static final Duration PROMPTLY = Duration.ofSeconds(2);
    private static final int SLOW_CLIENTS = 1000;

    @Test
    void silent_and_trickling_clients_cannot_starve_the_page() throws IOException {
        TaskStoreFactory stores = Guice.createInjector(new InMemoryQueueModule(Clock.system())).getInstance(TaskStoreFactory.class);
        try (DashboardServer server = loopbackServer(stores)) {
            List<Socket> slow = new ArrayList<>();
            try {
                for (int i = 0; i < SLOW_CLIENTS; i++) {
                    Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port());
                    slow.add(socket);
                    if (i % 2 == 0) { // half send the start of a request and then nothing more
                        socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".getBytes(UTF_8));
                        socket.getOutputStream().flush();
                    }
                }
                for (String path : List.of("/", "/static/dashboard.js", "/api/overview")) {
                    long started = System.nanoTime();
                    String answer = get(server.port(), path, "");
                    Duration took = Duration.ofNanos(System.nanoTime() - started);
                    System.out.printf("GET %s beside %d slow clients: %d ms%n", path, SLOW_CLIENTS, took.toMillis());
                    assertThat(answer).as(path).startsWith("HTTP/1.1 200");
                    assertThat(took).as(path).isLessThan(PROMPTLY);
                }
            } finally {
                for (Socket socket : slow) {
                    socket.close();
                }
            }
        } finally {
            stores.close();
        }
    }

    @Test
    void more_silent_clients_than_connection_slots_do_not_starve_it() throws Exception {
        TaskStoreFactory stores = Guice.createInjector(new InMemoryQueueModule(Clock.system())).getInstance(TaskStoreFactory.class);
        try (DashboardServer server = loopbackServer(stores)) {
            List<Socket> silent = new ArrayList<>();
            try {
                for (int i = 0; i < DashboardServer.MAX_CONNECTIONS + 50; i++) {
                    silent.add(new Socket(InetAddress.getLoopbackAddress(), server.port()));
                }
                Thread.sleep(500); // the server has taken every one it will
                long started = System.nanoTime();
                assertThat(get(server.port(), "/static/dashboard.js", "")).startsWith("HTTP/1.1 200");
                Duration took = Duration.ofNanos(System.nanoTime() - started);
                System.out.printf("GET /static/dashboard.js beside %d silent connections: %d ms%n", silent.size(), took.toMillis());
                assertThat(took).isLessThan(PROMPTLY);
            } finally {
                for (Socket socket : silent) {
                    socket.close();
                }
            }
        } finally {
            stores.close();
        }
    }

    @Test
    void a_frozen_redis_leaves_the_page_up_and_fails_reads_clearly_within_seconds() throws Exception {
        try (RedisServer redis = RedisServer.start()) {
            TaskStoreFactory stores = Guice.createInjector(new LettuceQueueModule(RedisOptions.create(redis.uri())))
                    .getInstance(TaskStoreFactory.class);
            QueueName queue = QueueName.of("frozen");
            stores.forQueue(queue).publish(List.of(new NewTask(TaskId.of("t-1"), Partition.regular("p"), Priority.DEFAULT,
                    "{}".getBytes(UTF_8), Duration.ZERO, Map.of())));
            try (DashboardServer server = loopbackServer(stores)) {
                assertThat(get(server.port(), "/api/queues/frozen", "")).startsWith("HTTP/1.1 200");
                signal("STOP", redis.pid());
                Thread.sleep(1_200); // past the second for which a queue's statistics are reused
                try {
                    for (int round = 0; round < 2; round++) { // twice: the first round's stuck backend calls must not delay the second
                        for (String path : List.of("/api/overview", "/api/queues/frozen", "/api/queues/frozen/dead-letters")) {
                            long started = System.nanoTime();
                            String answer = get(server.port(), path, "");
                            Duration took = Duration.ofNanos(System.nanoTime() - started);
                            System.out.printf("GET %s on a frozen Redis: %d ms, %s%n", path, took.toMillis(), answer.lines().findFirst().orElse(""));
                            assertThat(answer).as(path).startsWith("HTTP/1.1 503").contains("did not answer");
                            assertThat(took).as(path).isLessThan(Duration.ofSeconds(5));
                        }
                        for (String path : List.of("/", "/queues/frozen", "/static/dashboard.js", "/static/dashboard.css")) {
                            long started = System.nanoTime();
                            assertThat(get(server.port(), path, "")).as(path).startsWith("HTTP/1.1 200");
                            Duration took = Duration.ofNanos(System.nanoTime() - started);
                            System.out.printf("GET %s on a frozen Redis: %d ms%n", path, took.toMillis());
                            assertThat(took).as(path).isLessThan(PROMPTLY);
                        }
                    }
                    long started = System.nanoTime();
                    String pause = post(server.port(), "/api/queues/frozen/pause", "{}");
                    assertThat(pause).startsWith("HTTP/1.1 503")
                            .contains("did not answer within 3 s; an action that reached it may still take effect: reload to see");
                    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
                } finally {
                    signal("CONT", redis.pid());
                }
            } finally {
                stores.close();
            }
        }
    }

    private static DashboardServer loopbackServer(TaskStoreFactory stores) {
        return DashboardServer.start(stores, "test", new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                AccessGuard.withToken(TOKEN, InetAddress.getLoopbackAddress()), List.of(), Duration.ofSeconds(1));
    }

    static void signal(String signal, long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        assertThat(kill.waitFor()).isZero();
    }

    private static String post(int port, String path, String body) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(40_000);
            byte[] bytes = body.getBytes(UTF_8);
            socket.getOutputStream().write(("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nX-Ordo-Token: " + TOKEN
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length + "\r\nConnection: close\r\n\r\n")
                    .getBytes(UTF_8));
            socket.getOutputStream().write(bytes);
            return new String(socket.getInputStream().readAllBytes(), UTF_8);
        }
    }
}
