package io.ordo.dashboard;

import com.google.inject.Guice;
import io.ordo.domain.ConsumerId;
import io.ordo.domain.GroupName;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
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

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A queue's consumer groups through the dashboard's API (docs/groups.md): the list with each group's
 * figures, a group's page read with {@code ?group=}, actions on one group alone, creating and deleting
 * groups behind the token, and a group that does not exist said to be unknown rather than shown empty.
 */
class DashboardGroupsHttpTest {
    private static final String TOKEN = "groups-test-token-0123456789";
    private static final QueueName QUEUE = QueueName.of("grouped");
    private static final GroupName BILLING = GroupName.of("billing");
    private static final GroupName MAIL = GroupName.of("mail.v2");
    private static final String JSON = "Content-Type: application/json\r\n";

    private TaskStoreFactory stores;
    private DashboardServer server;

    @BeforeEach
    void start() {
        stores = Guice.createInjector(new InMemoryQueueModule(Clock.system())).getInstance(TaskStoreFactory.class);
        TaskStore queue = stores.forQueue(QUEUE);
        queue.publish(List.of(task("before-groups"))); // stays in the queue's own view
        queue.createGroup(MAIL);
        queue.createGroup(BILLING);
        queue.publish(List.of(task("t-1"), task("t-2"), task("t-3"),
                NewTask.builder(Partition.regular("p"), "{}".getBytes(UTF_8)).id("later").delay(Duration.ofHours(1)).build()));
        // billing: one in flight, one dead, one ready, one delayed; mail.v2: three ready, one delayed
        TaskStore billing = stores.forGroup(QUEUE, BILLING);
        ConsumerId worker = ConsumerId.of("billing-worker");
        billing.heartbeat(worker, Duration.ofMinutes(5));
        List<Lease> leases = billing.consume(worker, 2, Duration.ZERO);
        billing.fail(worker, List.of(leases.get(0).id()), "card declined");
        server = DashboardServer.start(stores, "inmemory", new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                AccessGuard.withToken(TOKEN, InetAddress.getLoopbackAddress()), List.of(), Duration.ofSeconds(5));
    }

    @AfterEach
    void stop() {
        server.close();
        stores.close();
    }

    @Test
    void the_queue_lists_its_groups_by_name_with_each_groups_figures() throws IOException {
        String answer = request("GET", "/api/queues/grouped/groups", "", "");

        assertThat(answer).startsWith("HTTP/1.1 200").contains("\"name\":\"grouped\"").contains("\"maxGroups\":32");
        assertThat(answer.indexOf("\"name\":\"billing\"")).as("by name").isPositive()
                .isLessThan(answer.indexOf("\"name\":\"mail.v2\""));
        String billing = answer.substring(answer.indexOf("\"name\":\"billing\""), answer.indexOf("\"name\":\"mail.v2\""));
        assertThat(billing).contains("\"ready\":1,\"delayed\":1,\"inFlight\":1,\"dead\":1").contains("\"liveConsumers\":1")
                .contains("\"publishedTotal\":4").contains("\"paused\":false");
        assertThat(answer.substring(answer.indexOf("\"name\":\"mail.v2\"")))
                .contains("\"ready\":3,\"delayed\":1,\"inFlight\":0,\"dead\":0").contains("\"liveConsumers\":0");
        assertThat(request("GET", "/api/queues/plain-queue/groups", "", "")).startsWith("HTTP/1.1 200")
                .contains("\"groups\":[]");
    }

    @Test
    void a_groups_page_reads_the_groups_own_view() throws IOException {
        stores.forGroup(QUEUE, BILLING).configure(stores.forGroup(QUEUE, BILLING).settings().toBuilder()
                .partitionConcurrency(4).build());

        assertThat(request("GET", "/api/queues/grouped?group=billing", "", "")).startsWith("HTTP/1.1 200")
                .contains("\"name\":\"grouped\",\"group\":\"billing\"")
                .contains("\"ready\":1,\"delayed\":1,\"inFlight\":1,\"dead\":1")
                .contains("{\"consumer\":\"billing-worker\"")
                .as("the sampler reads the queues' own totals: no chart for a group").doesNotContain("\"throughput\"");
        assertThat(request("GET", "/api/queues/grouped", "", "")).as("the queue's own view")
                .contains("\"ready\":1,\"delayed\":0,\"inFlight\":0,\"dead\":0").contains("\"throughput\"")
                .doesNotContain("\"group\"");
        assertThat(request("GET", "/api/queues/grouped/dead-letters?group=billing", "", "")).startsWith("HTTP/1.1 200")
                .contains("\"group\":\"billing\",\"total\":1").contains("card declined");
        assertThat(request("GET", "/api/queues/grouped/dead-letters?group=mail.v2", "", "")).startsWith("HTTP/1.1 200")
                .contains("\"total\":0");
        assertThat(request("GET", "/api/queues/grouped/task?group=mail.v2&id=t-1", "", "")).startsWith("HTTP/1.1 200")
                .contains("\"id\":\"t-1\",\"state\":\"pending\"");
        assertThat(request("GET", "/api/queues/grouped/task?id=t-1&group=billing", "", "")).contains("\"state\":\"dead\"");
        assertThat(request("GET", "/api/queues/grouped/task?id=t-1", "", "")).as("published after the first group")
                .startsWith("HTTP/1.1 404").contains("no task t-1 in queue grouped");
        assertThat(request("GET", "/api/queues/grouped/task?group=mail.v2&id=before-groups", "", ""))
                .startsWith("HTTP/1.1 404").contains("no task before-groups in group mail.v2 of queue grouped");
        assertThat(request("GET", "/api/queues/grouped/limits?group=billing", "", "")).contains("\"partitionConcurrency\":4");
        assertThat(request("GET", "/api/queues/grouped/limits?group=mail.v2", "", "")).contains("\"partitionConcurrency\":0");
    }

    @Test
    void a_group_that_does_not_exist_is_said_to_be_unknown_instead_of_shown_empty() throws IOException {
        for (String path : List.of("/api/queues/grouped?group=nope", "/api/queues/grouped/dead-letters?group=nope",
                "/api/queues/grouped/task?group=nope&id=t-1", "/api/queues/grouped/limits?group=nope",
                "/api/queues/typo?group=billing")) {
            assertThat(request("GET", path, "", "")).as(path).startsWith("HTTP/1.1 404")
                    .contains("has no consumer group").contains("(never created, or deleted); check the name");
        }
        assertThat(request("POST", "/api/queues/grouped/pause?group=nope", JSON + token(), "{}"))
                .startsWith("HTTP/1.1 404").contains("queue grouped has no consumer group nope");
        assertThat(request("GET", "/api/queues/grouped?group=bad%20name", "", "")).startsWith("HTTP/1.1 400")
                .contains("group: may contain only letters, digits, '.', '_' and '-', was 'bad name'");
        assertThat(request("GET", "/api/queues/grouped?group=", "", "")).as("an empty group: the queue's own view")
                .startsWith("HTTP/1.1 200").doesNotContain("\"group\"");
    }

    @Test
    void actions_with_a_group_act_on_that_group_alone() throws IOException {
        assertThat(request("POST", "/api/queues/grouped/pause?group=billing", JSON + token(), "{}"))
                .startsWith("HTTP/1.1 200").contains("\"paused\":true");
        assertThat(stores.forGroup(QUEUE, BILLING).stats().paused()).isTrue();
        assertThat(stores.forGroup(QUEUE, MAIL).stats().paused()).isFalse();
        assertThat(stores.forQueue(QUEUE).stats().paused()).isFalse();
        assertThat(request("GET", "/api/queues/grouped/groups", "", "")).as("the list's reading forgotten")
                .contains("\"paused\":true");

        assertThat(request("POST", "/api/queues/grouped/dead-letters/redrive-all?group=billing", JSON + token(), "{}"))
                .startsWith("HTTP/1.1 200").contains("\"count\":1");
        assertThat(stores.forGroup(QUEUE, BILLING).stats().dead()).isZero();
        assertThat(request("POST", "/api/queues/grouped/task/cancel?group=mail.v2", JSON + token(), "{\"id\":\"t-2\"}"))
                .startsWith("HTTP/1.1 200").contains("\"outcome\":\"cancelled\"");
        assertThat(stores.forGroup(QUEUE, MAIL).get(TaskId.of("t-2"))).isEmpty();
        assertThat(stores.forGroup(QUEUE, BILLING).get(TaskId.of("t-2"))).as("the other group keeps it").isPresent();
    }

    @Test
    void groups_are_created_and_deleted_with_the_token_and_a_valid_name() throws IOException {
        String create = "/api/queues/grouped/groups/create";
        String delete = "/api/queues/grouped/groups/delete";
        assertThat(request("POST", create, JSON, "{\"group\":\"audit\"}")).startsWith("HTTP/1.1 401");
        assertThat(request("POST", create, JSON + token() + "Origin: http://evil.example\r\n", "{\"group\":\"audit\"}"))
                .startsWith("HTTP/1.1 403");
        assertThat(request("POST", delete, JSON + "X-Ordo-Token: wrong-token-0123456789\r\n", "{\"group\":\"billing\"}"))
                .startsWith("HTTP/1.1 403");
        assertThat(request("POST", create, "Content-Type: text/plain\r\n" + token(), "{\"group\":\"audit\"}"))
                .startsWith("HTTP/1.1 400");
        assertThat(request("GET", create + "?group=audit", token(), "")).as("a GET never acts").startsWith("HTTP/1.1 404");
        assertThat(stores.forQueue(QUEUE).groups()).containsExactly(BILLING, MAIL);

        assertThat(request("POST", create, JSON + token(), "{\"group\":\"bad name!\"}")).startsWith("HTTP/1.1 400")
                .contains("group: may contain only letters, digits, '.', '_' and '-', was 'bad name!'");
        assertThat(request("POST", create, JSON + token(), "{\"group\":\"" + "g".repeat(65) + "\"}")).startsWith("HTTP/1.1 400")
                .contains("group: ");
        assertThat(request("POST", create, JSON + token(), "{}")).startsWith("HTTP/1.1 400").contains("group: is required");
        assertThat(stores.forQueue(QUEUE).groups()).containsExactly(BILLING, MAIL);

        assertThat(request("POST", create, JSON + token(), "{\"group\":\"audit\"}")).startsWith("HTTP/1.1 200")
                .contains("{\"group\":\"audit\",\"created\":true}");
        assertThat(request("POST", create, JSON + token(), "{\"group\":\"audit\"}")).startsWith("HTTP/1.1 200")
                .contains("{\"group\":\"audit\",\"created\":false}");
        assertThat(stores.forQueue(QUEUE).groups()).containsExactly(GroupName.of("audit"), BILLING, MAIL);
        assertThat(request("GET", "/api/queues/grouped?group=audit", "", "")).startsWith("HTTP/1.1 200")
                .contains("\"ready\":0,\"delayed\":0");

        assertThat(request("GET", "/api/queues/grouped?group=billing", "", "")).startsWith("HTTP/1.1 200");
        assertThat(request("POST", delete, JSON + token(), "{\"group\":\"billing\"}")).startsWith("HTTP/1.1 200")
                .contains("{\"group\":\"billing\",\"deleted\":true}");
        assertThat(stores.forQueue(QUEUE).groups()).containsExactly(GroupName.of("audit"), MAIL);
        assertThat(request("GET", "/api/queues/grouped?group=billing", "", "")).as("its last reading forgotten")
                .startsWith("HTTP/1.1 404").contains("queue grouped has no consumer group billing");
        assertThat(request("GET", "/api/queues/grouped/groups", "", "")).doesNotContain("\"billing\"");
        assertThat(request("POST", delete, JSON + token(), "{\"group\":\"billing\"}")).startsWith("HTTP/1.1 200")
                .contains("{\"group\":\"billing\",\"deleted\":false}");
    }

    private static NewTask task(String id) {
        return NewTask.builder(Partition.regular("p"), "{}".getBytes(UTF_8)).id(id).build();
    }

    private static String token() {
        return "X-Ordo-Token: " + TOKEN + "\r\n";
    }

    private String request(String method, String path, String headers, String body) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write((method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + server.port() + "\r\n" + headers
                    + "Content-Length: " + body.getBytes(UTF_8).length + "\r\nConnection: close\r\n\r\n" + body).getBytes(UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), UTF_8);
        }
    }
}
