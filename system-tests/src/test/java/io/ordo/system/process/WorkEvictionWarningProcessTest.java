package io.ordo.system.process;

import io.ordo.redis.testing.RedisServer;
import io.ordo.systemtest.OrdoProcess;
import io.ordo.systemtest.RedisClient;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ordo work} on a Redis whose eviction policy can delete tasks logs one warning with the fix
 * when it starts (the Redis store factory does, so every application on the library gets it); on a
 * Redis that keeps every task it logs none.
 */
@Tag("full")
class WorkEvictionWarningProcessTest {
    private static final String WARNING = "maxmemory-policy is allkeys-lru: a full Redis deletes keys";

    @ParameterizedTest
    @EnumSource(RedisClient.class)
    void a_worker_on_an_evicting_redis_warns_once_at_start(RedisClient client) {
        try (RedisServer redis = RedisServer.start(WorkEvictionWarningProcessTest::freePort,
                List.of("--maxmemory", "64mb", "--maxmemory-policy", "allkeys-lru"));
             OrdoProcess worker = OrdoProcess.start("work", "--backend", client.backend(), "--redis", redis.uri(),
                     "--queue", "evicting", "--metrics-port", "0")) {
            String line = worker.awaitErr("the eviction warning", text -> text.contains(WARNING));
            assertThat(line).contains("Redis at 127.0.0.1:" + redis.port())
                    .contains("fix: CONFIG SET maxmemory-policy noeviction");
            OrdoProcess.pause(1500); // the worker polls meanwhile: still one warning
            assertThat(worker.err()).filteredOn(text -> text.contains("maxmemory-policy")).hasSize(1);
            worker.terminate();
            worker.awaitExit();
        }
    }

    @ParameterizedTest
    @EnumSource(RedisClient.class)
    void a_worker_on_a_redis_that_keeps_every_task_warns_nothing(RedisClient client) {
        try (RedisServer redis = RedisServer.start(WorkEvictionWarningProcessTest::freePort,
                List.of("--maxmemory", "64mb", "--maxmemory-policy", "noeviction"));
             OrdoProcess worker = OrdoProcess.start("work", "--backend", client.backend(), "--redis", redis.uri(),
                     "--queue", "keeping", "--metrics-port", "0")) {
            worker.awaitErr("the metrics line", text -> text.contains("metrics on http://"));
            OrdoProcess.pause(1500);
            assertThat(worker.err()).noneMatch(text -> text.contains("maxmemory-policy"));
            worker.terminate();
            worker.awaitExit();
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
