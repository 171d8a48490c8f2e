package io.ordo.system.fault;

import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.TaskId;
import io.ordo.ports.CancelOutcome;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.redis.testing.RedisServer;
import io.ordo.systemtest.OrdoProcess;
import io.ordo.systemtest.RedisClient;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Task control under real processes (docs/task-control.md): a running task cancelled whose handler ignores
 * the interrupt, and a task that extends its lease to three times the processing timeout, kept while its
 * worker lives and taken back promptly once it is SIGKILLed.
 */
@Tag("full")
class TaskControlDrillTest {
    private static final RedisClient CLIENT = RedisClient.LETTUCE;
    private static final Duration HEARTBEAT_TTL = Duration.ofSeconds(3); // a worker heartbeats every second
    private static final Duration CANCEL_GRACE = Duration.ofSeconds(2);
    private static final Duration PROCESSING_TIMEOUT = Duration.ofSeconds(2);

    @Test
    void a_cancelled_handler_that_ignores_its_interrupt_is_given_up_and_its_thread_recovered_within_the_grace() {
        String queue = "cancel-drill";
        Journal journal = Drill.newJournal(queue);
        try (RedisServer redis = RedisServer.start(); TaskStoreFactory stores = CLIENT.open(redis.uri())) {
            Drill.settings(CLIENT, redis.uri(), queue, "--heartbeat-ttl", HEARTBEAT_TTL.toSeconds() + "s");
            TaskStore store = stores.forQueue(QueueName.of(queue));
            store.publish(List.of(Drill.task(Partition.regular("jobs"), "stuck", Drill.HANG)));
            // one handler thread: until the worker recovers it, nothing else runs
            try (OrdoProcess worker = OrdoProcess.start(Drill.work(CLIENT, redis.uri(), queue, journal,
                    "--concurrency", "1", "--prefetch", "1", "--work-time", "20ms",
                    "--cancel-grace", CANCEL_GRACE.toMillis() + "ms", "--grace", "1s", "--log-tasks")
                    .toArray(String[]::new))) {
                Drill.awaitCount(Duration.ofSeconds(30), 1, () -> journal.entries().stream()
                        .filter(e -> e.event().equals("begin") && e.id().equals("stuck")).count());
                List<String> after = List.of("after-1", "after-2", "after-3");
                for (String id : after) {
                    store.publish(List.of(Drill.task(Partition.regular("jobs"), id, null)));
                }

                long cancelledAt = System.currentTimeMillis();
                assertThat(store.cancel(List.of(TaskId.of("stuck")))).containsEntry(TaskId.of("stuck"),
                        CancelOutcome.CANCEL_REQUESTED);
                Duration drained = Drill.awaitDrained(store, Duration.ofSeconds(30), () -> String.join("\n", worker.err()));

                long nextBegun = journal.entries().stream().filter(e -> e.event().equals("begin") && after.contains(e.id()))
                        .mapToLong(Journal.Entry::at).min().orElseThrow();
                Duration recovered = Duration.ofMillis(nextBegun - cancelledAt);
                // the worker hears of it with its next heartbeat (a third of the TTL), interrupts halfway through
                // the grace, gives the handler up at its end, and the replacement thread takes the next task
                Duration heard = HEARTBEAT_TTL.dividedBy(3);
                Duration bound = heard.plus(CANCEL_GRACE).plusMillis(1_500); // (a loaded machine's slack)
                Drill.figures("cancel of a running task whose handler ignores interrupts (%s): cancel grace %d ms,"
                                + " heartbeat every %d ms; the one handler thread was back at work %.1f s after the cancel"
                                + " (bound %.1f s); queue drained in %.1f s",
                        CLIENT.backend(), CANCEL_GRACE.toMillis(), HEARTBEAT_TTL.dividedBy(3).toMillis(),
                        recovered.toMillis() / 1000.0, bound.toMillis() / 1000.0, Drill.seconds(drained));

                assertThat(store.get(TaskId.of("stuck"))).as("cancelled: deleted, not retried").isEmpty();
                assertThat(store.deadLetters(0, 10).total()).as("nor dead-lettered").isZero();
                assertThat(journal.doneCounts().keySet()).containsExactlyInAnyOrderElementsOf(after);
                assertThat(recovered).as("the worker's thread came back within the grace of its hearing of the cancel")
                        .isLessThan(bound);
                assertThat(worker.isAlive()).isTrue();
                assertThat(worker.out()).as("the stuck run left the worker as cancelled")
                        .filteredOn(line -> line.contains("stuck") && !line.startsWith("started"))
                        .isNotEmpty().allMatch(line -> line.startsWith("cancelled"));
            }
        }
    }

    @Test
    void a_lease_extended_to_three_timeouts_is_kept_while_its_worker_lives_and_taken_back_promptly_after_sigkill() {
        String queue = "extend-drill";
        Journal journal = Drill.newJournal(queue);
        Duration work = PROCESSING_TIMEOUT.multipliedBy(3);
        try (RedisServer redis = RedisServer.start(); TaskStoreFactory stores = CLIENT.open(redis.uri())) {
            Drill.settings(CLIENT, redis.uri(), queue, "--heartbeat-ttl", HEARTBEAT_TTL.toSeconds() + "s",
                    "--processing-timeout", PROCESSING_TIMEOUT.toMillis() + "ms");
            TaskStore store = stores.forQueue(QueueName.of(queue));
            store.publish(List.of(Drill.task(Partition.regular("long"), "long-1", null)));
            String[] extending = Drill.work(CLIENT, redis.uri(), queue, journal, "--concurrency", "1",
                    "--work-time", work.toMillis() + "ms", "--extend-lease", PROCESSING_TIMEOUT.toMillis() + "ms",
                    "--grace", "1s").toArray(String[]::new);

            // 1. alive: the task runs three timeouts long and is never taken back (its own worker reaps too)
            try (OrdoProcess worker = OrdoProcess.start(extending)) {
                Duration drained = Drill.awaitDrained(store, work.plusSeconds(20), () -> String.join("\n", worker.err()));
                List<Journal.Entry> runs = journal.entries().stream().filter(e -> e.id().equals("long-1")).toList();
                Drill.figures("a lease extended every %d ms to %d ms from then (%s): a %d ms task under a %d ms processing"
                                + " timeout ran once, done in %.1f s",
                        PROCESSING_TIMEOUT.toMillis() / 3, PROCESSING_TIMEOUT.toMillis(), CLIENT.backend(), work.toMillis(),
                        PROCESSING_TIMEOUT.toMillis(), Drill.seconds(drained));
                assertThat(runs).extracting(Journal.Entry::event).containsExactly("begin", "done");
                assertThat(runs).extracting(Journal.Entry::attempt).containsOnly(1);
                worker.terminate();
                worker.awaitExit();
            }

            // 2. SIGKILLed mid-task: another worker gets it once the dead one's heartbeat runs out
            store.publish(List.of(Drill.task(Partition.regular("long"), "long-2", null)));
            long killedAt;
            try (OrdoProcess doomed = OrdoProcess.start(extending)) {
                Drill.awaitCount(Duration.ofSeconds(30), 1, () -> journal.entries().stream()
                        .filter(e -> e.event().equals("begin") && e.id().equals("long-2")).count());
                OrdoProcess.pause(PROCESSING_TIMEOUT.toMillis() * 2); // past its first deadline: extended
                doomed.kill();
                killedAt = System.currentTimeMillis();
                doomed.awaitExit();
            }
            try (OrdoProcess successor = OrdoProcess.start(Drill.work(CLIENT, redis.uri(), queue, journal,
                    "--concurrency", "1", "--work-time", "20ms", "--grace", "1s").toArray(String[]::new))) {
                Drill.awaitDrained(store, Duration.ofSeconds(30), () -> String.join("\n", successor.err()));
                Journal.Entry retaken = journal.entries().stream()
                        .filter(e -> e.event().equals("begin") && e.id().equals("long-2") && e.attempt() == 2)
                        .findFirst().orElseThrow();
                Duration takenBack = Duration.ofMillis(retaken.at() - killedAt);
                // the dead worker's heartbeat runs out (TTL), then the successor's reaper (every second) takes it
                Duration bound = HEARTBEAT_TTL.plusSeconds(4);
                Drill.figures("the extended lease of a SIGKILLed worker (%s): its task began again %.1f s after the kill"
                                + " (heartbeat TTL %d ms; bound %.1f s)", CLIENT.backend(), takenBack.toMillis() / 1000.0,
                        HEARTBEAT_TTL.toMillis(), bound.toMillis() / 1000.0);
                assertThat(takenBack).as("taken back promptly once its worker died").isLessThan(bound);
                assertThat(journal.doneCounts()).containsEntry("long-2", 1);
            }
        }
    }
}
