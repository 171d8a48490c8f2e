package io.ordo.system.process;

import io.ordo.domain.QueueName;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.redis.testing.RedisServer;
import io.ordo.systemtest.OrdoProcess;
import io.ordo.systemtest.RedisClient;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code ordo publish --file} streams: a file larger than the process's whole heap is published in bounded memory. */
@Tag("full")
class PublishLargeFileProcessTest {
    private static final int LINES = 12_000;
    private static final int PAYLOAD_BYTES = 4096;

    @TempDir
    Path dir;

    @Test
    void a_file_larger_than_the_heap_is_published_whole_in_file_order() throws IOException {
        Path file = dir.resolve("large.jsonl");
        String filler = "x".repeat(PAYLOAD_BYTES - 30);
        try (BufferedWriter writer = Files.newBufferedWriter(file, UTF_8)) {
            for (int i = 1; i <= LINES; i++) {
                writer.write("{\"n\":" + i + ",\"fill\":\"" + filler + "\"}\n");
            }
        }
        assertThat(Files.size(file)).as("the file is larger than the heap given to ordo").isGreaterThan(40L << 20);
        String queue = "large-" + UUID.randomUUID();

        try (RedisServer redis = RedisServer.start();
             OrdoProcess ordo = OrdoProcess.startWithMaxHeap("32m", "publish", "--backend", "jedis", "--redis", redis.uri(),
                     "--queue", queue, "--partition", "bulk", "--ordered", "--file", file.toString())) {
            assertThat(ordo.awaitExit()).as(String.join("\n", ordo.err())).isZero();
            assertThat(ordo.out()).last().asString()
                    .isEqualTo("published " + LINES + " tasks to queue " + queue + ": " + LINES + " created, 0 duplicate");
            try (TaskStoreFactory stores = RedisClient.JEDIS.open(redis.uri())) {
                assertThat(stores.forQueue(QueueName.of(queue)).stats().ready()).isEqualTo(LINES);
            }
        }
    }
}
