package io.ordo.cli.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.Priority;
import io.ordo.domain.QueueName;
import io.ordo.domain.RetryPolicy;
import io.ordo.domain.TaskId;
import io.ordo.ports.QueueStats;
import io.ordo.ports.TaskStore;
import io.ordo.runtime.Workers;
import io.ordo.runtime.worker.Outcome;
import io.ordo.runtime.worker.TaskContext;
import io.ordo.runtime.worker.TaskHandler;
import io.ordo.runtime.worker.Worker;
import io.ordo.runtime.worker.WorkerOptions;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

/**
 * Something to look at: {@code ordo dashboard --demo} fills the queue {@code demo} (when it holds
 * nothing yet) with ready, delayed and dead tasks, ordered partitions held by a consumer that
 * never finishes, blocked partitions, and keeps it moving with a small worker and a trickle of
 * new tasks while the dashboard runs. The queue keeps results for an hour, so the tasks the worker
 * completes show on the Completed page with theirs.
 */
public final class DemoActivity implements AutoCloseable {
    public static final QueueName QUEUE = QueueName.of("demo");
    static final ConsumerId STUCK_CONSUMER = ConsumerId.of("billing-worker-7");
    private static final Duration STUCK_HEARTBEAT_TTL = Duration.ofSeconds(30);
    private static final int TRICKLE_CEILING = 80;
    private static final Duration RESULT_RETENTION = Duration.ofHours(1);

    private final TaskStore store;
    private final Worker<JsonNode> worker;
    private final ScheduledExecutorService timer;
    private final List<TaskId> stuckTasks;
    private final ObjectMapper json = new ObjectMapper();
    private final RandomGenerator random = RandomGenerator.getDefault();
    private final AtomicLong published = new AtomicLong();

    private DemoActivity(TaskStore store, Worker<JsonNode> worker, ScheduledExecutorService timer, List<TaskId> stuckTasks) {
        this.store = store;
        this.worker = worker;
        this.timer = timer;
        this.stuckTasks = stuckTasks;
    }

    /** Seeds the demo queue if it is empty, then starts the worker and the trickle; says what it did on {@code log}. */
    public static DemoActivity start(Workers workers, Consumer<String> log) {
        TaskStore store = workers.store(QUEUE);
        QueueStats stats = store.stats();
        List<TaskId> stuck = List.of();
        if (stats.ready() + stats.delayed() + stats.inFlight() + stats.dead() == 0) {
            stuck = seed(store);
            log.accept("seeded the queue " + QUEUE + " with ready, delayed, held, blocked and dead tasks");
        } else {
            log.accept("the queue " + QUEUE + " already holds tasks: not seeded again");
        }
        WorkerOptions options = WorkerOptions.builder().consumer("demo-worker-1").concurrency(2).prefetch(2)
                .gracePeriod(Duration.ofSeconds(2))
                .retryPolicy(new RetryPolicy(Duration.ofSeconds(1), 2.0, Duration.ofSeconds(5), 0.1)).build();
        Worker<JsonNode> worker = workers.worker(QUEUE, JsonNode.class, new DemoTasks(), options);
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(job -> {
            Thread thread = new Thread(job, "ordo-dashboard-demo");
            thread.setDaemon(true);
            return thread;
        });
        DemoActivity activity = new DemoActivity(store, worker, timer, stuck);
        worker.start();
        timer.scheduleWithFixedDelay(activity::tick, 1, 1, TimeUnit.SECONDS);
        return activity;
    }

    /** The story's starting point; returns the tasks the stuck consumer holds. */
    private static List<TaskId> seed(TaskStore store) {
        store.configure(store.settings().toBuilder().resultRetention(RESULT_RETENTION).build());
        // Dead letters first, so they are the first tasks a consume takes.
        List<NewTask> doomed = List.of(
                task("hook-1001", Partition.regular("webhooks"), "{\"url\":\"https://shop.example.com/hooks/order\",\"order\":1001}"),
                task("hook-1002", Partition.regular("webhooks"), "{\"url\":\"https://shop.example.com/hooks/order\",\"order\":1002}"),
                task("mail-bounce-17", Partition.regular("emails"), "{\"to\":\"nobody@example.invalid\",\"template\":\"welcome\"}"),
                task("import-77", Partition.regular("imports"),
                        "{\"note\":\"<script>alert('not run: shown as text')</script>\",\"rows\":[" + "1,2,3,4,5,6,7,8,9,10,".repeat(20) + "0]}"));
        store.publish(doomed);
        ConsumerId seeder = ConsumerId.of("importer-2");
        List<TaskId> taken = store.consume(seeder, doomed.size(), Duration.ZERO).stream().map(Lease::id).toList();
        failByPrefix(store, seeder, taken, "hook-", "HTTP 503 Service Unavailable from shop.example.com");
        failByPrefix(store, seeder, taken, "mail-", "SMTP 550: mailbox unavailable");
        failByPrefix(store, seeder, taken, "import-", "com.fasterxml.jackson.core.JsonParseException: Unexpected character ('<' (code 60))");

        // Ordered partitions a consumer takes and never finishes: they stay locked while it heartbeats.
        List<NewTask> held = new ArrayList<>();
        for (String account : List.of("account-42", "account-7")) {
            for (int i = 1; i <= 2; i++) {
                held.add(task(account + "-tx-" + i, Partition.ordered(account), "{\"cents\":" + (i * 250) + "}"));
            }
        }
        store.publish(held);
        store.heartbeat(STUCK_CONSUMER, STUCK_HEARTBEAT_TTL);
        List<TaskId> stuck = store.consume(STUCK_CONSUMER, held.size(), Duration.ZERO).stream().map(Lease::id).toList();

        List<NewTask> backlog = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            backlog.add(task("account-42-tx-" + (i + 2), Partition.ordered("account-42"), "{\"cents\":" + (i * 100) + "}"));
        }
        for (int i = 1; i <= 30; i++) {
            backlog.add(task("thumb-" + i, Partition.regular("thumbnails"), "{\"image\":\"img-" + i + ".png\",\"size\":256}"));
        }
        for (int i = 1; i <= 12; i++) {
            backlog.add(task("report-" + i, Partition.regular("reports"), "{\"report\":\"weekly\",\"team\":" + i + "}"));
        }
        for (int i = 1; i <= 25; i++) {
            backlog.add(task("welcome-" + i, Partition.regular("emails"), "{\"to\":\"user" + i + "@example.com\"}"));
        }
        for (int i = 1; i <= 15; i++) {
            NewTask reminder = task("reminder-" + i, Partition.regular("reminders"), "{\"remind\":" + i + "}");
            backlog.add(new NewTask(reminder.id(), reminder.partition(), reminder.priority(), reminder.payload(),
                    Duration.ofMinutes(i), reminder.headers()));
        }
        store.publish(backlog);
        store.blockPartition(Partition.regular("thumbnails"), Duration.ofMinutes(10));
        store.blockPartition(Partition.regular("reports"), Duration.ofMinutes(4));
        return stuck;
    }

    private static void failByPrefix(TaskStore store, ConsumerId consumer, List<TaskId> taken, String prefix, String reason) {
        List<TaskId> ids = taken.stream().filter(id -> id.value().startsWith(prefix)).toList();
        if (!ids.isEmpty()) {
            store.fail(consumer, ids, reason);
        }
    }

    private static NewTask task(String id, Partition partition, String payload) {
        return new NewTask(TaskId.of(id), partition, Priority.DEFAULT, payload.getBytes(StandardCharsets.UTF_8),
                Duration.ZERO, Map.of());
    }

    /** Every second: keep the stuck consumer alive, add a few tasks while the backlog is small. */
    private void tick() {
        try {
            store.heartbeat(STUCK_CONSUMER, STUCK_HEARTBEAT_TTL);
            if (store.stats().ready() >= TRICKLE_CEILING) {
                return;
            }
            List<NewTask> tasks = new ArrayList<>();
            int count = 1 + random.nextInt(4);
            for (int i = 0; i < count; i++) {
                long n = published.incrementAndGet();
                ObjectNode payload = json.createObjectNode().put("to", "user" + n + "@example.com");
                if (n % 15 == 0) {
                    payload.put("broken", "HTTP 410 Gone from hooks.example.com");
                }
                Partition partition = n % 3 == 0 ? Partition.regular("webhooks") : Partition.regular("emails");
                tasks.add(new NewTask(TaskId.of("live-" + System.currentTimeMillis() + "-" + n), partition, Priority.DEFAULT,
                        json.writeValueAsBytes(payload), n % 5 == 0 ? Duration.ofSeconds(20) : Duration.ZERO, Map.of()));
            }
            store.publish(tasks);
        } catch (Exception unavailable) {
            // the dashboard shows the backend's state; the demo tries again next second
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        worker.stop();
        try {
            worker.awaitStopped(Duration.ofSeconds(5));
            if (!stuckTasks.isEmpty()) {
                store.release(STUCK_CONSUMER, stuckTasks); // back at their positions, nothing counted
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException unavailable) {
            // the backend is gone: its own reclaim returns them once the heartbeat runs out
        }
    }

    /** Works on a demo task for a moment; a task that says it is broken goes to the dead letters. */
    private static final class DemoTasks implements TaskHandler<JsonNode> {
        @Override
        public Outcome handle(JsonNode payload, TaskContext context) throws InterruptedException {
            Thread.sleep(300);
            JsonNode broken = payload.get("broken");
            if (broken != null) {
                return Outcome.fail(broken.asText());
            }
            // a small result, which the queue keeps with the completed task
            return Outcome.success(JsonNodeFactory.instance.objectNode().put("ok", true).put("task", context.id().value())
                    .put("tookMs", 300));
        }
    }
}
