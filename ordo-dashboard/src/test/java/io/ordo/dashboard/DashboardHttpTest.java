package io.ordo.dashboard;

import com.google.inject.Guice;
import io.ordo.domain.ConsumerId;
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
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard's HTTP rules without a browser, with every header under the test's control: what
 * a forged cross-site request, a rebound host name or a wrong body gets, and the headers every
 * answer carries.
 */
class DashboardHttpTest {
    private static final String TOKEN = "http-test-token-0123456789";
    private static final QueueName QUEUE = QueueName.of("http-test");

    private TaskStoreFactory stores;
    private DashboardServer server;

    @BeforeEach
    void start() {
        stores = Guice.createInjector(new InMemoryQueueModule(Clock.system())).getInstance(TaskStoreFactory.class);
        TaskStore store = stores.forQueue(QUEUE);
        store.publish(List.of(new NewTask(TaskId.of("dead-1"), Partition.regular("p"), Priority.DEFAULT, "{}".getBytes(UTF_8),
                Duration.ZERO, Map.of())));
        ConsumerId consumer = ConsumerId.of("c");
        store.consume(consumer, 1, Duration.ZERO);
        store.fail(consumer, List.of(TaskId.of("dead-1")), "boom");
        server = DashboardServer.start(stores, "inmemory", new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                AccessGuard.withToken(TOKEN, InetAddress.getLoopbackAddress()), List.of(), Duration.ofSeconds(5));
    }

    @AfterEach
    void stop() {
        server.close();
        stores.close();
    }

    @Test
    void the_task_lists_are_json_refuse_bad_parameters_by_name_and_an_unknown_queue() throws IOException {
        String found = request("GET", "/api/queues/http-test/dead-letters/search?reason=BOO&partition=p", "", "");
        assertThat(found).startsWith("HTTP/1.1 200").contains("\"examined\":1").contains("\"id\":\"dead-1\"")
                .contains("\"reason\":{\"text\":\"boom\"");
        assertThat(request("GET", "/api/queues/http-test/partition?partition=p", "", ""))
                .startsWith("HTTP/1.1 200").contains("\"waiting\":0").contains("\"tasks\":[]");

        assertThat(request("GET", "/api/queues/http-test/completed", "", "")).startsWith("HTTP/1.1 200")
                .contains("\"resultsKept\":false,\"resultRetentionMillis\":0,\"total\":0").contains("\"tasks\":[]");

        assertThat(request("GET", "/api/queues/http-test/completed?limit=101", "", ""))
                .startsWith("HTTP/1.1 400").contains("limit: must be between 1 and 100, was 101");
        assertThat(request("GET", "/api/queues/http-test/partition", "", ""))
                .startsWith("HTTP/1.1 400").contains("partition: is required");
        assertThat(request("GET", "/api/queues/http-test/delayed?offset=1001", "", ""))
                .startsWith("HTTP/1.1 400").contains("offset: must be between 0 and 1000, was 1001");
        assertThat(request("GET", "/api/queues/http-test/in-flight?cursor=not-ours", "", ""))
                .startsWith("HTTP/1.1 400").contains("cursor: is not a cursor this listing gave");
        assertThat(request("GET", "/api/queues/http-test/dead-letters/search?from=yesterday", "", ""))
                .startsWith("HTTP/1.1 400").contains("from: must be a time in epoch milliseconds");
        assertThat(request("GET", "/api/queues/http-test/dead-letters/search?from=20&before=10", "", ""))
                .startsWith("HTTP/1.1 400").contains("diedBefore: must be after diedFrom");
        for (String list : List.of("delayed", "in-flight", "completed", "partition?partition=p", "dead-letters/search?reason=x")) {
            assertThat(request("GET", "/api/queues/no-such-queue/" + list, "", "")).as(list)
                    .startsWith("HTTP/1.1 404").contains("queue no-such-queue does not exist on inmemory");
        }
    }

    @Test
    void the_completed_tasks_are_read_as_json_with_their_result_sizes_and_a_task_with_its_result() throws IOException {
        TaskStore store = stores.forQueue(QUEUE);
        store.configure(store.settings().toBuilder().resultRetention(Duration.ofMinutes(30)).build());
        store.publish(List.of(new NewTask(TaskId.of("done-1"), Partition.regular("p"), Priority.DEFAULT, "{}".getBytes(UTF_8),
                Duration.ZERO, Map.of())));
        ConsumerId consumer = ConsumerId.of("c");
        store.consume(consumer, 1, Duration.ZERO);
        store.complete(consumer, Map.of(TaskId.of("done-1"), "{\"sum\":7}".getBytes(UTF_8)));

        assertThat(request("GET", "/api/queues/http-test/completed", "", "")).startsWith("HTTP/1.1 200")
                .contains("\"resultsKept\":true,\"resultRetentionMillis\":1800000,\"total\":1")
                .contains("\"id\":\"done-1\"").contains("\"resultBytes\":9").doesNotContain("sum");
        assertThat(request("GET", "/api/queues/http-test/task?id=done-1", "", "")).startsWith("HTTP/1.1 200")
                .contains("\"state\":\"completed\"")
                .contains("\"result\":{\"text\":\"{\\\"sum\\\":7}\",\"truncated\":false,\"bytes\":9}");
    }

    @Test
    void the_schedules_of_a_queue_are_read_as_json() throws IOException {
        stores.forQueue(QUEUE).putSchedule(io.ordo.domain.Schedule.builder("nightly", Partition.ordered("reports"),
                "{}".getBytes(UTF_8)).cron("0 9 * * *", java.time.ZoneId.of("Europe/Berlin"))
                .misfire(io.ordo.domain.MisfirePolicy.catchUp(3)).build());
        stores.forQueue(QUEUE).putSchedule(io.ordo.domain.Schedule.builder("ping", Partition.regular("p"),
                "{}".getBytes(UTF_8)).every(Duration.ofMinutes(5)).build());

        String answer = request("GET", "/api/queues/http-test/schedules", "", "");

        assertThat(answer).startsWith("HTTP/1.1 200")
                .contains("{\"id\":\"nightly\",\"cron\":\"0 9 * * *\",\"zone\":\"Europe/Berlin\",\"partition\":\"!reports\","
                        + "\"ordered\":true,\"priority\":0,\"misfire\":\"catch-up:3\"}")
                .contains("{\"id\":\"ping\",\"everyMillis\":300000,\"partition\":\"p\",\"ordered\":false,\"priority\":0,"
                        + "\"misfire\":\"skip\"}");
        assertThat(answer.indexOf("\"nightly\"")).as("by id").isLessThan(answer.indexOf("\"ping\""));
    }

    @Test
    void the_caps_and_rate_limits_of_a_queue_are_read_as_json() throws IOException {
        assertThat(request("GET", "/api/queues/http-test/limits", "", "")).startsWith("HTTP/1.1 200")
                .contains("\"partitionConcurrency\":0,\"queueConcurrency\":0,\"partitionConcurrencyOverrides\":[],"
                        + "\"deadLetterMaxCount\":0,\"deadLetterMaxAgeMillis\":0}");

        stores.forQueue(QUEUE).configure(stores.forQueue(QUEUE).settings().toBuilder().partitionConcurrency(2)
                .partitionConcurrencyOverrides(Map.of(Partition.regular("zeta"), 1, Partition.regular("bulk"), 8))
                .queueConcurrency(50).partitionRateLimit(new io.ordo.domain.RateLimit(10, Duration.ofSeconds(1), 20))
                .deadLetterMaxCount(1000).deadLetterMaxAge(Duration.ofDays(7)).build());

        assertThat(request("GET", "/api/queues/http-test/limits", "", "")).startsWith("HTTP/1.1 200")
                .contains("\"partitionConcurrency\":2,\"queueConcurrency\":50,\"partitionConcurrencyOverrides\":"
                        + "[{\"partition\":\"bulk\",\"cap\":8},{\"partition\":\"zeta\",\"cap\":1}],"
                        + "\"partitionRateLimit\":{\"permits\":10,\"perMillis\":1000,\"burst\":20},"
                        + "\"deadLetterMaxCount\":1000,\"deadLetterMaxAgeMillis\":604800000}")
                .doesNotContain("queueRateLimit");
    }

    @Test
    void a_purge_needs_the_token_the_own_origin_and_a_json_body() throws IOException {
        String purge = "/api/queues/http-test/dead-letters/purge-all";
        String json = "Content-Type: application/json\r\n";
        assertThat(request("POST", purge, json, "{}")).startsWith("HTTP/1.1 401").contains("X-Ordo-Token");
        assertThat(request("POST", purge, json + "X-Ordo-Token: wrong-token-0123456789\r\n", "{}"))
                .startsWith("HTTP/1.1 403").contains("wrong dashboard token");
        assertThat(request("POST", purge, json + token() + "Origin: http://evil.example\r\n", "{}"))
                .startsWith("HTTP/1.1 403").contains("cross-origin request refused");
        assertThat(request("POST", purge, json + token() + "Sec-Fetch-Site: cross-site\r\n", "{}"))
                .startsWith("HTTP/1.1 403").contains("cross-site request refused");
        assertThat(request("POST", purge, "Content-Type: text/plain\r\n" + token(), "{}"))
                .startsWith("HTTP/1.1 400").contains("Content-Type");
        assertThat(request("GET", purge, token(), "")).as("a GET never acts").startsWith("HTTP/1.1 404");
        assertThat(stores.forQueue(QUEUE).stats().dead()).isEqualTo(1);

        assertThat(request("POST", purge, json + token() + "Origin: http://127.0.0.1:" + server.port() + "\r\n"
                + "Sec-Fetch-Site: same-origin\r\n", "{}")).startsWith("HTTP/1.1 200").contains("\"count\":1");
        assertThat(stores.forQueue(QUEUE).stats().dead()).isZero();
    }

    @Test
    void a_dashboard_on_loopback_answers_only_to_loopback_host_names() throws IOException {
        assertThat(requestWithHost("evil.example:" + server.port(), "/api/overview")).startsWith("HTTP/1.1 421");
        assertThat(requestWithHost("localhost:" + server.port(), "/api/overview")).startsWith("HTTP/1.1 200");
        assertThat(requestWithHost("[::1]:" + server.port(), "/api/overview")).startsWith("HTTP/1.1 200");
    }

    @Test
    void every_answer_forbids_inline_scripts_framing_and_sniffing() throws IOException {
        for (String path : List.of("/", "/queues/http-test/dead-letters", "/static/dashboard.js",
                "/static/dashboard-view.js", "/static/dashboard-completed.js", "/api/overview")) {
            String answer = request("GET", path, "", "").toLowerCase();
            assertThat(answer).as(path).startsWith("http/1.1 200")
                    .contains("content-security-policy: default-src 'none'; script-src 'self'; style-src 'self';")
                    .contains("x-content-type-options: nosniff").contains("x-frame-options: deny")
                    .doesNotContain("access-control-allow-origin");
        }
        assertThat(request("GET", "/", "", "")).doesNotContain("<script>").doesNotContain("style=")
                .contains("<script src=\"/static/dashboard.js\" defer></script>")
                .contains("<script src=\"/static/dashboard-view.js\" defer></script>\n"
                        + "  <script src=\"/static/dashboard-completed.js\" defer></script>\n  <script src=\"/static/dashboard.js\"");
        assertThat(request("GET", "/nothing-here", "", "")).startsWith("HTTP/1.1 404");
        assertThat(request("GET", "/api/queues/http-test/dead-letters?limit=101", "", ""))
                .startsWith("HTTP/1.1 400").contains("limit: must be between 1 and 100");
        assertThat(request("GET", "/api/queues/bad%20name", "", "")).startsWith("HTTP/1.1 400").contains("queue");
    }

    @Test
    void a_queue_that_never_held_anything_is_said_not_to_exist_instead_of_shown_empty() throws IOException {
        for (String path : List.of("/api/queues/typo", "/api/queues/typo/dead-letters", "/api/queues/typo/task?id=t-1")) {
            assertThat(request("GET", path, "", "")).as(path).startsWith("HTTP/1.1 404")
                    .contains("queue typo does not exist on inmemory (nothing was ever published to it)");
        }
        assertThat(request("GET", "/api/queues/http-test/task?id=nothing", "", "")).startsWith("HTTP/1.1 404")
                .contains("no task nothing in queue http-test");
        assertThat(request("GET", "/api/queues/http-test", "", "")).startsWith("HTTP/1.1 200");

        try (DashboardServer named = DashboardServer.start(stores, "inmemory", new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                AccessGuard.readOnly(InetAddress.getLoopbackAddress()), List.of(QueueName.of("named-empty")), Duration.ofSeconds(5))) {
            assertThat(RawHttp.get(named.port(), "/api/queues/named-empty", ""))
                    .as("a queue named with --queue shows even while it holds nothing").startsWith("HTTP/1.1 200");
        }
    }

    @Test
    void the_task_view_shows_the_type_and_the_tasks_own_attempts_limit_or_that_it_has_none() throws IOException {
        stores.forQueue(QUEUE).publish(List.of(NewTask.builder(Partition.regular("p"), "{}".getBytes(UTF_8)).id("typed-1")
                .type("Deposit").maxAttempts(3).build()));

        assertThat(request("GET", "/api/queues/http-test/task?id=typed-1", "", "")).startsWith("HTTP/1.1 200")
                .contains("\"type\":\"Deposit\"").contains("\"maxAttempts\":3");
        assertThat(request("GET", "/api/queues/http-test/task?id=dead-1", "", "")).startsWith("HTTP/1.1 200")
                .contains("\"type\":null").doesNotContain("maxAttempts");
    }

    private static String token() {
        return "X-Ordo-Token: " + TOKEN + "\r\n";
    }

    private String request(String method, String path, String headers, String body) throws IOException {
        return raw(method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + server.port() + "\r\n" + headers
                + "Content-Length: " + body.getBytes(UTF_8).length + "\r\nConnection: close\r\n\r\n" + body);
    }

    private String requestWithHost(String host, String path) throws IOException {
        return raw("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n");
    }

    private String raw(String request) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), UTF_8);
        }
    }
}
