package io.ordo.cli;

import io.ordo.domain.QueueName;
import io.ordo.domain.TaskId;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.redis.testing.RedisServer;
import io.ordo.redis.testing.RedisServerExtension;
import io.ordo.systemtest.RedisClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code ordo publish} against a private Redis: bytes kept exactly, files checked before the first write, stdin streamed. */
@ExtendWith(RedisServerExtension.class)
class PublishBytesAndFilesTest {
    @TempDir
    Path dir;

    @Test
    void the_payload_bytes_given_are_the_bytes_stored(RedisServer redis) throws IOException {
        String queue = queue();
        String exact = "{ \"big\": 12345678901234567890.123456789012345678901, \"huge\": 1e400,"
                + " \"dup\": 1, \"dup\": 2, \"text\": \"caf\\u00e9 \u00e9\" }";
        Path file = Files.write(dir.resolve("exact.jsonl"), (exact + "\r\n").getBytes(UTF_8));

        CliRun argument = ordo(redis, "publish", "--queue", queue, "--partition", "p", "--id", "arg", exact);
        CliRun fromFile = ordo(redis, "publish", "--queue", queue, "--partition", "p", "--file", file.toString());

        assertThat(argument.exitCode()).as(argument.err()).isZero();
        assertThat(fromFile.exitCode()).as(fromFile.err()).isZero();
        String fileTaskId = fromFile.outLines().get(0).split("\\s+")[1];
        try (TaskStoreFactory stores = RedisClient.JEDIS.open(redis.uri())) {
            TaskStore store = stores.forQueue(QueueName.of(queue));
            assertThat(new String(store.get(TaskId.of("arg")).orElseThrow().task().payload(), UTF_8)).isEqualTo(exact);
            assertThat(new String(store.get(TaskId.of(fileTaskId)).orElseThrow().task().payload(), UTF_8)).isEqualTo(exact);
        }
    }

    @Test
    void a_line_over_the_queues_payload_limit_is_named_by_its_line_and_nothing_is_published(RedisServer redis)
            throws IOException {
        String queue = queue();
        assertThat(ordo(redis, "settings", "--queue", queue, "--max-payload-bytes", "1024").exitCode()).isZero();
        Path file = Files.writeString(dir.resolve("big.jsonl"),
                "{}\n\n{}\n\"" + "x".repeat(2000) + "\"\n{}\n");

        CliRun run = ordo(redis, "publish", "--queue", queue, "--partition", "p", "--file", file.toString());

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.errLines()).containsExactly("ordo: " + file + " line 4: is longer than 1024 bytes, the queue allows"
                + " at most 1024 (ordo settings --max-payload-bytes)");
        assertThat(ready(redis, queue)).isZero();
    }

    @Test
    void a_bad_line_after_a_published_batch_says_exactly_which_lines_were_published(RedisServer redis) {
        String queue = queue();
        StringBuilder lines = new StringBuilder("\n"); // line 1 is blank: lines are the file's, not the payloads'
        for (int i = 0; i < 10_000; i++) {
            lines.append("{\"n\":").append(i).append("}\n");
        }
        lines.append("{\"n\":\n{}\n");

        CliRun run = withStdin(lines.toString(), () -> ordo(redis, "publish", "--queue", queue, "--partition", "p",
                "--file", "-"));

        assertThat(run.exitCode()).isEqualTo(ExitCodes.FAILURE);
        assertThat(run.errLines()).singleElement().asString()
                .startsWith("ordo: stdin line 10002: is not JSON: ")
                .endsWith("; stdin lines 2-10001 were published (10000 tasks), no line after 10001 was");
        assertThat(ready(redis, queue)).isEqualTo(10_000);
    }

    @Test
    void stdin_is_published_as_lines_arrive(RedisServer redis) throws Exception {
        String queue = queue();
        InputStream original = System.in;
        PipedOutputStream writer = new PipedOutputStream();
        System.setIn(new PipedInputStream(writer, 1 << 16));
        try {
            CompletableFuture<CliRun> run = CompletableFuture.supplyAsync(
                    () -> ordo(redis, "publish", "--queue", queue, "--partition", "p", "--file", "-"));
            write(writer, "{\"n\":1}\n{\"n\":2}\n");
            awaitReady(redis, queue, 2);
            write(writer, "{\"n\":3}\n");
            awaitReady(redis, queue, 3);
            writer.close();

            CliRun done = run.get(30, TimeUnit.SECONDS);
            assertThat(done.exitCode()).as(done.err()).isZero();
            assertThat(done.outLines()).last().isEqualTo("published 3 tasks to queue " + queue + ": 3 created, 0 duplicate");
        } finally {
            System.setIn(original);
        }
    }

    @Test
    void a_batch_refused_part_way_names_the_lines_published_before_it(RedisServer redis) throws Exception {
        String queue = queue();
        try (Piped stdin = new Piped()) {
            CompletableFuture<CliRun> run = CompletableFuture.supplyAsync(
                    () -> ordo(redis, "publish", "--queue", queue, "--partition", "p", "--file", "-"));
            write(stdin.writer, "{\"n\":1}\n\n{\"n\":2}\n");
            awaitReady(redis, queue, 2);
            redis.command("CONFIG", "SET", "maxmemory", "1");
            write(stdin.writer, "{\"n\":3}\n");
            stdin.writer.close();

            CliRun done = run.get(30, TimeUnit.SECONDS);
            assertThat(done.exitCode()).isEqualTo(ExitCodes.FAILURE);
            assertThat(done.errLines()).singleElement().asString().startsWith("ordo: ")
                    .endsWith("; stdin lines 1-3 were published (2 tasks), no line after 3 was");
        } finally {
            redis.command("CONFIG", "SET", "maxmemory", "0");
        }
        assertThat(ready(redis, queue)).isEqualTo(2);
    }

    @Test
    void a_batch_in_flight_when_redis_stops_answering_is_named_as_maybe_published(RedisServer redis) throws Exception {
        String queue = queue();
        try (Piped stdin = new Piped()) {
            CompletableFuture<CliRun> run = CompletableFuture.supplyAsync(
                    () -> ordo(redis, "publish", "--queue", queue, "--partition", "p", "--timeout", "1s", "--file", "-"));
            write(stdin.writer, "{\"n\":1}\n{\"n\":2}\n");
            awaitReady(redis, queue, 2);
            signal("STOP", redis.pid());
            try {
                write(stdin.writer, "{\"n\":3}\n{\"n\":4}\n");
                stdin.writer.close();

                CliRun done = run.get(30, TimeUnit.SECONDS);
                assertThat(done.exitCode()).isEqualTo(ExitCodes.FAILURE);
                assertThat(done.errLines()).singleElement().asString()
                        .startsWith("ordo: jedis at " + redis.uri() + " did not answer within 1s (--timeout); stdin lines 1-2"
                                + " were published (2 tasks), lines 3-")
                        .contains(" may or may not have been (their batch was in flight), no line after ");
            } finally {
                signal("CONT", redis.pid());
            }
        }
    }

    /** Stdin replaced by a pipe the test writes to, for as long as it is open. */
    private static final class Piped implements AutoCloseable {
        final InputStream original = System.in;
        final PipedOutputStream writer = new PipedOutputStream();

        Piped() throws IOException {
            System.setIn(new PipedInputStream(writer, 1 << 16));
        }

        @Override
        public void close() throws IOException {
            writer.close();
            System.setIn(original);
        }
    }

    private static void signal(String signal, long pid) throws IOException, InterruptedException {
        assertThat(new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start().waitFor()).isZero();
    }

    private static void write(OutputStream writer, String text) throws IOException {
        writer.write(text.getBytes(UTF_8));
        writer.flush();
    }

    private static void awaitReady(RedisServer redis, String queue, long expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (ready(redis, queue) < expected) {
            assertThat(System.nanoTime()).as("%d tasks published while stdin is still open", expected).isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    private static long ready(RedisServer redis, String queue) {
        try (TaskStoreFactory stores = RedisClient.JEDIS.open(redis.uri())) {
            return stores.forQueue(QueueName.of(queue)).stats().ready();
        }
    }

    private static CliRun withStdin(String text, java.util.function.Supplier<CliRun> run) {
        InputStream original = System.in;
        System.setIn(new java.io.ByteArrayInputStream(text.getBytes(UTF_8)));
        try {
            return run.get();
        } finally {
            System.setIn(original);
        }
    }

    private static CliRun ordo(RedisServer redis, String... args) {
        String[] all = new String[args.length + 2];
        all[0] = args[0];
        all[1] = "--backend=jedis";
        all[2] = "--redis=" + redis.uri();
        System.arraycopy(args, 1, all, 3, args.length - 1);
        return CliRun.of(all);
    }

    private static String queue() {
        return "publish-" + UUID.randomUUID();
    }
}
