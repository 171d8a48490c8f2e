package io.ordo.system.process;

import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.TaskId;
import io.ordo.domain.TaskState;
import io.ordo.ports.QueueStats;
import io.ordo.ports.TaskSnapshot;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.redis.testing.RedisServer;
import io.ordo.redis.testing.RedisServerExtension;
import io.ordo.systemtest.OrdoProcess;
import io.ordo.systemtest.RedisClient;
import io.ordo.systemtest.TaskEvents;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.IntStream;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ordo work} as a child process gets SIGTERM in the middle of an ordered batch: the running
 * task finishes, the rest goes back at once without counting an attempt, nothing is lost, nothing
 * runs after it was returned, and a second worker finishes the queue without doing anything twice.
 */
@ExtendWith(RedisServerExtension.class)
@Tag("full")
class WorkShutdownProcessTest {
    private static final int ORDERED = 12;
    private static final int REGULAR = 8;

    @ParameterizedTest
    @EnumSource(RedisClient.class)
    void sigterm_mid_batch_loses_nothing_and_runs_nothing_after_returning_it(RedisClient client, RedisServer redis) {
        QueueName queue = QueueName.of("shutdown-" + UUID.randomUUID());
        List<String> orderedIds = ids("acct", ORDERED);
        List<String> all = new ArrayList<>(orderedIds);
        all.addAll(ids("mail", REGULAR));
        try (TaskStoreFactory stores = client.open(redis.uri())) {
            TaskStore store = stores.forQueue(queue);
            store.publish(tasks(Partition.ordered("account-42"), orderedIds));
            store.publish(tasks(Partition.regular("emails"), ids("mail", REGULAR)));

            TaskEvents first;
            try (OrdoProcess worker = OrdoProcess.start(work(client, redis.uri(), queue, "--grace", "10s"))) {
                worker.awaitOut("acct-03 starting", line -> line.startsWith("started") && line.contains("acct-03"));
                worker.terminate();
                assertThat(worker.awaitExit()).as("killed by SIGTERM after a graceful stop").isEqualTo(143);
                assertThat(worker.err()).anyMatch(line -> line.contains("stopping; running tasks get up to 10000 ms"));
                assertThat(worker.err()).anyMatch(line -> line.startsWith("ordo: stopped: "));
                first = TaskEvents.parse(worker.out());
            }

            Set<String> processedFirst = new HashSet<>(first.ids("processed"));
            Set<String> released = new HashSet<>(first.ids("released"));
            List<String> orderedDone = first.ids("processed").stream().filter(id -> id.startsWith("acct")).toList();
            assertThat(orderedDone).as("the batch ran in order, up to and including the task running at SIGTERM")
                    .containsExactlyElementsOf(orderedIds.subList(0, orderedDone.size()))
                    .contains("acct-03").hasSizeLessThan(ORDERED);
            assertThat(released).as("the rest of the ordered batch went back")
                    .containsAll(orderedIds.subList(orderedDone.size(), ORDERED));
            // a fetch still waiting when the tasks went back may take some again; they go straight back
            first.byId().forEach((id, events) -> assertThat(events.equals(List.of("started", "processed"))
                    || events.stream().allMatch("released"::equals)).as(id + " " + events).isTrue());
            assertThat(first.ids("started")).as("nothing returned was started").doesNotContainAnyElementsOf(released);

            QueueStats afterFirst = store.stats();
            assertThat(afterFirst.inFlight()).isZero();
            assertThat(afterFirst.dead()).isZero();
            assertThat(afterFirst.ackedTotal()).isEqualTo(processedFirst.size());
            for (String id : all) {
                if (!processedFirst.contains(id)) {
                    TaskSnapshot snapshot = store.get(TaskId.of(id)).orElseThrow(() -> new AssertionError(id + " is lost"));
                    assertThat(snapshot.state()).as(id).isEqualTo(TaskState.PENDING);
                    assertThat(snapshot.task().attempts()).as("%s's return did not count as an attempt", id).isZero();
                }
            }

            TaskEvents second;
            try (OrdoProcess worker = OrdoProcess.start(work(client, redis.uri(), queue, "--until-empty"))) {
                assertThat(worker.awaitExit()).isZero();
                second = TaskEvents.parse(worker.out());
            }
            List<String> processed = new ArrayList<>(first.ids("processed"));
            processed.addAll(second.ids("processed"));
            assertThat(processed).as("every task ran exactly once").containsExactlyInAnyOrderElementsOf(all);
            assertThat(processed.stream().filter(id -> id.startsWith("acct")).toList())
                    .as("the ordered partition kept its order across the shutdown").containsExactlyElementsOf(orderedIds);
            assertThat(store.stats().ackedTotal()).isEqualTo(all.size());
        }
    }

    private static String[] work(RedisClient client, String uri, QueueName queue, String... more) {
        List<String> args = new ArrayList<>(List.of("work", "--backend", client.backend(), "--redis", uri,
                "--queue", queue.value(), "--concurrency", "2", "--prefetch", "20", "--work-time", "150ms", "--log-tasks"));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    private static List<String> ids(String prefix, int count) {
        return IntStream.rangeClosed(1, count).mapToObj(i -> String.format("%s-%02d", prefix, i)).toList();
    }

    private static List<NewTask> tasks(Partition partition, List<String> ids) {
        return ids.stream().map(id -> NewTask.builder(partition, ("{\"id\":\"" + id + "\"}").getBytes(UTF_8)).id(id).build())
                .toList();
    }

}
