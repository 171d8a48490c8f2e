package io.ordo.cli.demo;

import io.ordo.domain.Labels;
import io.ordo.domain.ConsumerId;
import io.ordo.domain.DeadLetter;
import io.ordo.domain.Lease;
import io.ordo.domain.Partition;
import io.ordo.domain.Priority;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.RetryPolicy;
import io.ordo.domain.Task;
import io.ordo.domain.TaskId;
import io.ordo.domain.TaskState;
import io.ordo.ports.AckOutcome;
import io.ordo.ports.PayloadCodec;
import io.ordo.ports.PublishReceipt;
import io.ordo.ports.QueueStats;
import io.ordo.ports.ReclaimReport;
import io.ordo.ports.RejectOutcome;
import io.ordo.ports.Rejection;
import io.ordo.ports.TaskSnapshot;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import io.ordo.runtime.Publication;
import io.ordo.runtime.Publisher;
import io.ordo.runtime.codec.JacksonPayloadCodec;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

/**
 * The story {@code ordo demo} tells, on one queue and a virtual clock: two workers share regular
 * and ordered partitions, a priority jumps the line, a delayed task waits, a failing task backs
 * off until it is dead-lettered, and a crashed worker's ordered batch comes back, in order, to the
 * other worker. The scenario decides only what the workers do and when time passes; every
 * outcome it prints is what the store answered.
 */
public final class DemoScenario {
    public static final QueueName QUEUE = QueueName.of("demo");

    private static final QueueSettings SETTINGS = QueueSettings.builder()
            .maxAttempts(3)
            .heartbeatTtl(Duration.ofSeconds(10))
            .build();
    // No jitter, so the story is the same on every run: 1s, 2s, 4s, …
    private static final RetryPolicy RETRY = RetryPolicy.DEFAULT.withoutJitter();
    private static final int PREFETCH = 4;

    private static final Partition ACCOUNT = Partition.ordered("account-42");
    private static final Partition EMAILS = Partition.regular("emails");
    private static final Partition WEBHOOKS = Partition.regular("webhooks");
    private static final Partition REPORTS = Partition.regular("reports");
    private static final ConsumerId WORKER_A = ConsumerId.of("worker-a");
    private static final ConsumerId WORKER_B = ConsumerId.of("worker-b");
    private static final TaskId WEBHOOK = TaskId.of("webhook-1");
    private static final TaskId REPORT = TaskId.of("report-1");
    private static final String WEBHOOK_FAILURE = "HTTP 503 from partner.example";

    private final TaskStore store;
    private final VirtualClock clock;
    private final Narrator narrator;
    private final PayloadCodec codec = new JacksonPayloadCodec();
    private final Publisher<String> publisher;

    public DemoScenario(TaskStore store, VirtualClock clock, PrintWriter out) {
        this.store = store;
        this.clock = clock;
        this.narrator = new Narrator(out, clock);
        this.publisher = new Publisher<>(store, codec);
    }

    public void run() {
        introduce();
        publish();
        List<Lease> heldByCrashedWorker = shareTheWork();
        retryUntilDeadLettered();
        waitForTheDelayedTask();
        recoverFromTheCrash(heldByCrashedWorker);
        summarize();
        narrator.flush();
    }

    private void introduce() {
        store.configure(SETTINGS);
        QueueSettings settings = store.settings();
        narrator.plain("Ordo demo: queue '%s' on the in-memory backend, on a virtual clock (t+0.000s = %s)",
                store.queue(), Instant.ofEpochMilli(clock.millis()));
        narrator.plain("settings: at most %d attempts, heartbeat TTL %s; failed tasks back off %s, then %s, …",
                settings.maxAttempts(), Narrator.seconds(settings.heartbeatTtl()),
                Narrator.seconds(backoffAfter(1)), Narrator.seconds(backoffAfter(2)));
    }

    private void publish() {
        narrator.heading("1. Publish one atomic batch: an ordered partition, regular ones, a priority, a delay");
        List<Publication<String>> batch = List.of(
                Publication.of(ACCOUNT, "open account").withId("acct-1"),
                Publication.of(ACCOUNT, "deposit 100").withId("acct-2"),
                Publication.of(ACCOUNT, "withdraw 30").withId("acct-3"),
                Publication.of(EMAILS, "welcome alice").withId("email-1"),
                Publication.of(EMAILS, "welcome bob").withId("email-2"),
                Publication.of(EMAILS, "password reset for carol").withId("email-urgent").withPriority(10),
                Publication.of(WEBHOOKS, "notify partner of order 7").withId(WEBHOOK),
                Publication.of(REPORTS, "nightly report").withId(REPORT).withDelay(Duration.ofSeconds(5)));
        List<PublishReceipt> receipts = publisher.publishAll(batch);
        for (int i = 0; i < batch.size(); i++) {
            Publication<String> sent = batch.get(i);
            narrator.step("%-10s %-13s %-12s %s", Labels.of(receipts.get(i).outcome()), receipts.get(i).id(),
                    sent.partition(), describe(sent));
        }
        Publication<String> again = batch.get(3);
        PublishReceipt repeat = publisher.publish(again);
        narrator.step("publish %s again, same id → %s", repeat.id(), Labels.of(repeat.outcome()));
    }

    /** Worker A takes a batch and crashes while holding what it has not finished; returns what it held. */
    private List<Lease> shareTheWork() {
        narrator.heading("2. Two workers share the queue; worker-a crashes holding an ordered batch");
        List<Lease> takenByA = consume(WORKER_A);
        List<Lease> heldByA = new ArrayList<>();
        for (Lease lease : takenByA) {
            if (heldByA.isEmpty() && !lease.partition().isOrdered()) {
                handle(WORKER_A, lease);
            } else {
                heldByA.add(lease);
            }
        }
        if (!heldByA.isEmpty()) {
            narrator.step("%s crashes holding %s: no more acks, no more heartbeats", WORKER_A, ids(heldByA));
        }
        List<Lease> takenByB = consume(WORKER_B);
        explainLockedPartitions(heldByA, takenByB);
        takenByB.forEach(lease -> handle(WORKER_B, lease));
        return heldByA;
    }

    private void explainLockedPartitions(List<Lease> heldByA, List<Lease> takenByB) {
        Map<Partition, TaskId> firstHeldOfEachOrderedPartition = heldByA.stream()
                .filter(lease -> lease.partition().isOrdered())
                .collect(Collectors.toMap(Lease::partition, Lease::id, (first, later) -> first, LinkedHashMap::new));
        firstHeldOfEachOrderedPartition.forEach((partition, firstHeld) -> {
            if (takenByB.stream().noneMatch(lease -> lease.partition().equals(partition))) {
                store.get(firstHeld).flatMap(TaskSnapshot::holder).ifPresent(holder -> narrator.detail(
                        "nothing from %s: it is locked while %s holds its batch", partition, holder));
            }
        });
    }

    private void retryUntilDeadLettered() {
        narrator.heading("3. A failing task retries with backoff until it becomes a dead letter");
        for (int round = 0; round <= SETTINGS.maxAttempts() && isWaiting(WEBHOOK); round++) {
            advanceTo(store.get(WEBHOOK).orElseThrow().task().readyAt());
            consume(WORKER_B).forEach(lease -> handle(WORKER_B, lease));
        }
        for (DeadLetter letter : store.deadLetters(0, 10).items()) {
            narrator.step("dead letter %s: %d attempts, died at %s, reason '%s'", letter.id(), letter.attempts(),
                    narrator.sinceStart(letter.deadAt()), letter.reason());
        }
    }

    private void waitForTheDelayedTask() {
        narrator.heading("4. A delayed task is delivered when it falls due, not before");
        consume(WORKER_B).forEach(lease -> handle(WORKER_B, lease));
        store.get(REPORT).filter(snapshot -> snapshot.state() == TaskState.DELAYED).ifPresent(snapshot ->
                narrator.detail("%s is %s until %s", REPORT, Labels.of(snapshot.state()),
                        narrator.sinceStart(snapshot.task().readyAt())));
        store.get(REPORT).ifPresent(snapshot -> advanceTo(snapshot.task().readyAt()));
        consume(WORKER_B).forEach(lease -> handle(WORKER_B, lease));
    }

    private void recoverFromTheCrash(List<Lease> heldByCrashedWorker) {
        narrator.heading("5. The crashed worker's tasks come back, in order, to the live worker");
        if (heldByCrashedWorker.isEmpty()) {
            narrator.step("%s held nothing when it crashed", WORKER_A);
            return;
        }
        for (Lease lease : heldByCrashedWorker) {
            store.get(lease.id()).ifPresent(snapshot -> narrator.step("%s is %s%s", lease.id(),
                    Labels.of(snapshot.state()), snapshot.holder().map(holder -> " with " + holder).orElse("")));
        }
        long lastSeen = heldByCrashedWorker.get(0).leasedAt();
        Duration ttl = store.settings().heartbeatTtl();
        advanceTo(lastSeen + ttl.toMillis());
        store.heartbeat(WORKER_B, ttl);
        narrator.step("%s heartbeats; %s was last heard from at %s, one heartbeat TTL (%s) ago",
                WORKER_B, WORKER_A, narrator.sinceStart(lastSeen), Narrator.seconds(ttl));
        ReclaimReport report = store.reclaim();
        narrator.step("reclaim → dead consumers %s; %d returned, %d dead-lettered", report.deadConsumers(),
                report.returned(), report.deadLettered());
        List<Lease> takenOver = consume(WORKER_B);
        List<TaskId> before = heldByCrashedWorker.stream().map(Lease::id).toList();
        List<TaskId> after = takenOver.stream().map(Lease::id).filter(before::contains).toList();
        narrator.detail(after.equals(before)
                ? "the same tasks in the same order as " + WORKER_A + " had them"
                : "not the order " + WORKER_A + " had them in, which was " + before);
        if (takenOver.stream().allMatch(lease -> attemptsBefore(lease, heldByCrashedWorker) == lease.task().attempts() - 1)) {
            narrator.detail("attempts kept: %s's delivery counted, so a task that crashes every worker ends as a dead letter",
                    WORKER_A);
        }
        takenOver.forEach(lease -> handle(WORKER_B, lease));
    }

    private void summarize() {
        narrator.heading("6. Where the queue stands");
        QueueStats stats = store.stats();
        narrator.step("ready %d, delayed %d, in flight %d, dead %d, live consumers %d",
                stats.ready(), stats.delayed(), stats.inFlight(), stats.dead(), stats.liveConsumers());
        narrator.step("totals: published %d, acked %d, dead-lettered %d",
                stats.publishedTotal(), stats.ackedTotal(), stats.deadLetteredTotal());
    }

    private List<Lease> consume(ConsumerId worker) {
        List<Lease> leases = store.consume(worker, PREFETCH, Duration.ZERO);
        narrator.step("%s consumes (up to %d) → %s", worker, PREFETCH,
                leases.isEmpty() ? "nothing" : leases.size() + (leases.size() == 1 ? " task" : " tasks"));
        for (Lease lease : leases) {
            Task task = lease.task();
            narrator.detail("%-13s %-12s attempt %d%s  %s", lease.id(), lease.partition(), task.attempts(),
                    task.priority().equals(Priority.DEFAULT) ? "" : ", priority " + task.priority().value(),
                    quoted(task.payload()));
        }
        return leases;
    }

    /** The demo's handler: webhooks fail (the partner is down), everything else succeeds. */
    private void handle(ConsumerId worker, Lease lease) {
        if (lease.partition().equals(WEBHOOKS)) {
            Duration backoff = backoffAfter(lease.task().attempts());
            RejectOutcome outcome = store.reject(worker, List.of(lease.id()),
                    Rejection.retryAfter(backoff, WEBHOOK_FAILURE)).get(lease.id());
            narrator.step("%s: %s fails (%s), attempt %d of %d; reject, retry in %s → %s", worker, lease.id(),
                    WEBHOOK_FAILURE, lease.task().attempts(), store.settings().maxAttempts(),
                    Narrator.seconds(backoff), Labels.of(outcome));
            return;
        }
        AckOutcome outcome = store.ack(worker, List.of(lease.id())).get(lease.id());
        narrator.step("%s: %s done; ack → %s", worker, lease.id(), Labels.of(outcome));
    }

    private static int attemptsBefore(Lease lease, List<Lease> earlier) {
        return earlier.stream().filter(before -> before.id().equals(lease.id()))
                .mapToInt(before -> before.task().attempts()).findFirst().orElse(-1);
    }

    private Duration backoffAfter(int failedAttempts) {
        return RETRY.delayAfter(failedAttempts, new SplittableRandom(0));
    }

    private boolean isWaiting(TaskId id) {
        return store.get(id).map(TaskSnapshot::state)
                .filter(state -> state == TaskState.PENDING || state == TaskState.DELAYED)
                .isPresent();
    }

    private void advanceTo(long epochMillis) {
        long now = clock.millis();
        if (epochMillis > now) {
            clock.advanceMillis(epochMillis - now);
            narrator.step("(%s later)", Narrator.seconds(Duration.ofMillis(epochMillis - now)));
        }
    }

    private String describe(Publication<String> publication) {
        StringBuilder text = new StringBuilder("'" + publication.payload() + "'");
        if (!publication.priority().equals(Priority.DEFAULT)) {
            text.append("  priority ").append(publication.priority().value());
        }
        if (!publication.delay().isZero()) {
            text.append("  delay ").append(Narrator.seconds(publication.delay()));
        }
        return text.toString();
    }

    private String quoted(byte[] payload) {
        return "'" + codec.decode(payload, String.class) + "'";
    }

    private static String ids(List<Lease> leases) {
        return leases.stream().map(lease -> lease.id().value()).collect(Collectors.joining(", "));
    }
}
