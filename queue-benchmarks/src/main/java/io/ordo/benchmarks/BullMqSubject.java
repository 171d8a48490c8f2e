package io.ordo.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * BullMQ, run by {@code peers/bullmq/bench.js} in a Node.js process of its own: each workload is one
 * JSON request on its stdin and one JSON answer on its stdout. Worker concurrency 50, BullMQ's best of
 * 1 / 10 / 50 on this kind of machine, is what the bar compares with.
 */
final class BullMqSubject implements Subject {
    static final int CONCURRENCY = 50;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process node;
    private final Writer requests;
    private final BufferedReader answers;
    private final String version;

    private BullMqSubject(Process node) {
        this.node = node;
        this.requests = new OutputStreamWriter(node.getOutputStream(), StandardCharsets.UTF_8);
        this.answers = new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8));
        JsonNode hello = call(request("hello"));
        this.version = hello.path("bullmq").asText() + " on Node.js " + hello.path("node").asText();
    }

    /** Starts the Node.js side; its dependencies must have been installed into the folder (scripts/bench does). */
    static BullMqSubject start(Path directory, BenchRedis redis) {
        if (!Files.isDirectory(directory.resolve("node_modules").resolve("bullmq"))) {
            throw new IllegalStateException("BullMQ is not installed in " + directory
                    + ": run 'npm ci' there (scripts/bench does it)");
        }
        ProcessBuilder builder = new ProcessBuilder("node", "bench.js").directory(directory.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().put("REDIS_PORT", Integer.toString(redis.port()));
        try {
            return new BullMqSubject(builder.start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start node (Node.js 20 is needed for the BullMQ peer)", e);
        }
    }

    /** "5.81.5 on Node.js v20.20.2". */
    String version() {
        return version;
    }

    @Override
    public boolean supports(Workload workload) {
        // no partitions, no per-key order, not Ordo's worker runtime, and no fan-out of a job to several groups
        return switch (workload) {
            case C1W, C2, C3, G1, M2 -> false;
            default -> true;
        };
    }

    @Override
    public void warmUp(BenchContext context) {
        int tasks = context.sizes().warmUpTasks();
        call(request("fill").put("from", 0).put("tasks", tasks));
        call(request("drain").put("tasks", tasks).put("concurrency", CONCURRENCY));
        context.redis().flushAll();
    }

    @Override
    public Measurement run(Workload workload, BenchContext context) {
        Mode.Sizes sizes = context.sizes();
        return switch (workload) {
            case P1 -> {
                context.startMeasuring();
                JsonNode answer = call(request("P1").put("seconds", sizes.publishSeconds()));
                yield new Measurement().add(Figure.P1_RATE, answer.path("tasksPerSecond").asDouble())
                        .tasks(answer.path("published").asLong());
            }
            case P2 -> {
                context.startMeasuring();
                yield new Measurement().add(Figure.P2_RATE, call(request("P2").put("tasks", sizes.publishTasks())
                        .put("batch", Mode.Sizes.PUBLISH_BATCH)).path("tasksPerSecond").asDouble())
                        .tasks(sizes.publishTasks());
            }
            case C1 -> drain(sizes.drainTasks(), context);
            case L1 -> latency(Workload.L1, Mode.Sizes.L1_RATE, sizes.l1Seconds(), context);
            case L2 -> latency(Workload.L2, Mode.Sizes.L2_RATE, sizes.l2Seconds(), context);
            case M1 -> memory(sizes.memoryTasks(), context);
            case M3 -> keptMemory(sizes.resultMemoryTasks(), context);
            case I1 -> idle(sizes.idleSeconds(), context);
            case C1W, C2, C3, G1, M2 -> throw new IllegalArgumentException("BullMQ does not run " + workload);
        };
    }

    private Measurement drain(int tasks, BenchContext context) {
        call(request("fill").put("from", 0).put("tasks", tasks));
        context.startMeasuring();
        JsonNode answer = call(request("drain").put("tasks", tasks).put("concurrency", CONCURRENCY));
        return new Measurement().add(Figure.C1_RATE, answer.path("tasksPerSecond").asDouble()).tasks(tasks)
                .check("C1: " + "each job handled and completed exactly once", exactlyOnce(answer, tasks),
                        describe(answer, tasks));
    }

    private Measurement latency(Workload workload, int rate, double seconds, BenchContext context) {
        context.startMeasuring();
        JsonNode answer = call(request("latency").put("rate", rate).put("seconds", seconds)
                .put("concurrency", CONCURRENCY));
        int tasks = answer.path("published").asInt();
        return new Measurement()
                .add(Figure.latency(workload, "p50"), answer.path("p50").asDouble())
                .add(Figure.latency(workload, "p99"), answer.path("p99").asDouble())
                .add(Figure.latency(workload, "p99.9"), answer.path("p999").asDouble())
                .add(Figure.publishedRate(workload), answer.path("publishRate").asDouble())
                .tasks(tasks)
                .check(workload + ": each job handled and completed exactly once", exactlyOnce(answer, tasks),
                        describe(answer, tasks));
    }

    private Measurement memory(int tasks, BenchContext context) {
        context.startMeasuring();
        long before = context.redis().usedMemory();
        call(request("fill").put("from", 0).put("tasks", tasks));
        return new Measurement().add(Figure.M1_BYTES, (context.redis().usedMemory() - before) / (double) tasks);
    }

    /**
     * M3's pass with results: the jobs filled as for M1, then drained by a worker that keeps completed jobs
     * (BullMQ's default) and returns the same 100-byte result Ordo's keeps, whose JSON is what BullMQ stores. Only
     * this pass, not the one with empty results: a BullMQ drain of the full count takes minutes.
     */
    private Measurement keptMemory(int tasks, BenchContext context) {
        context.startMeasuring();
        long empty = context.redis().usedMemory();
        call(request("fill").put("from", 0).put("tasks", tasks));
        long queued = context.redis().usedMemory();
        JsonNode answer = call(request("keep").put("tasks", tasks).put("concurrency", CONCURRENCY));
        RetainedMemory memory = new RetainedMemory(empty, queued, context.redis().usedMemory(), tasks);
        boolean kept = exactlyOnce(answer, tasks) && answer.path("kept").asInt() == tasks
                && answer.path("resultKept").asBoolean();
        return new Measurement()
                .add(Figure.M3_BYTES, memory.perCompletedTask())
                .add(Figure.M3_OVER_QUEUED, memory.overQueued())
                .check("M3, 100-byte results: each job handled once and kept completed with its return value", kept,
                        describe(answer, tasks) + String.format(", %,d kept completed, the last one's return value %s",
                                answer.path("kept").asInt(), answer.path("resultKept").asBoolean() ? "as returned"
                                        : "not as returned"));
    }

    private Measurement idle(double seconds, BenchContext context) {
        call(request("idle-start").put("concurrency", CONCURRENCY));
        try {
            Thread.sleep(JavaSubject.SETTLE.toMillis());
            context.startMeasuring();
            Measurement measurement = new Measurement();
            double window = seconds / context.repetitions();
            for (int rep = 0; rep < context.repetitions(); rep++) {
                long sent = context.redis().countSentCommands(Duration.ofMillis((long) (window * 1000)));
                measurement.add(Figure.I1_COMMANDS, sent / window);
            }
            return measurement;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            call(request("idle-stop"));
        }
    }

    private static boolean exactlyOnce(JsonNode answer, int tasks) {
        return answer.path("handled").asInt() == tasks && answer.path("duplicates").asInt() == 0
                && answer.path("completed").asInt() == tasks && answer.path("failed").asInt() == 0;
    }

    private static String describe(JsonNode answer, int tasks) {
        return String.format("%,d jobs: %,d completed, %,d failed, %,d handled twice, %,d never handled", tasks,
                answer.path("completed").asInt(), answer.path("failed").asInt(), answer.path("duplicates").asInt(),
                answer.path("missing").asInt());
    }

    private static ObjectNode request(String operation) {
        return JSON.createObjectNode().put("op", operation);
    }

    private synchronized JsonNode call(ObjectNode request) {
        try {
            requests.write(JSON.writeValueAsString(request));
            requests.write('\n');
            requests.flush();
            String line = answers.readLine();
            if (line == null) {
                throw new IllegalStateException("the BullMQ process ended (exit " + exitCode() + ") during "
                        + request);
            }
            JsonNode answer = JSON.readTree(line);
            if (!answer.path("ok").asBoolean()) {
                throw new IllegalStateException("BullMQ " + request.path("op").asText() + " failed: "
                        + answer.path("error").asText());
            }
            return answer;
        } catch (IOException e) {
            throw new UncheckedIOException("talking to the BullMQ process failed", e);
        }
    }

    private String exitCode() {
        try {
            return node.waitFor(2, TimeUnit.SECONDS) ? Integer.toString(node.exitValue()) : "still running";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    @Override
    public void close() {
        try {
            requests.write(JSON.writeValueAsString(Map.of("op", "quit")) + "\n");
            requests.flush();
            if (!node.waitFor(10, TimeUnit.SECONDS)) {
                node.destroy();
            }
        } catch (IOException e) {
            node.destroy();
        } catch (InterruptedException e) {
            node.destroy();
            Thread.currentThread().interrupt();
        }
    }
}
