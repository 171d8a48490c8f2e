package io.ordo.examples;

import com.google.inject.Guice;
import com.google.inject.Injector;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.lettuce.LettuceQueueModule;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.redis.testing.RedisServer;
import io.ordo.redis.testing.RedisServerExtension;
import io.ordo.runtime.RuntimeModule;
import io.ordo.runtime.Workers;
import io.ordo.runtime.worker.Outcome;
import io.ordo.runtime.worker.Worker;
import io.ordo.runtime.worker.WorkerOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** A Redis backend's module and RuntimeModule are all an application binds: the module brings the clock. */
@ExtendWith(RedisServerExtension.class)
class RedisModuleWiringTest {
    @Test
    void the_lettuce_module_and_the_runtime_module_alone_give_working_publishers_and_workers(RedisServer server)
            throws InterruptedException {
        Injector injector = Guice.createInjector(new LettuceQueueModule(server.uri()),
                new RuntimeModule(new SimpleMeterRegistry()));
        QueueName queue = QueueName.of("wiring-" + UUID.randomUUID());
        List<String> handled = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(2);
        try (TaskStoreFactory stores = injector.getInstance(TaskStoreFactory.class)) {
            Workers workers = injector.getInstance(Workers.class);
            workers.<String>publisher(queue).publishAll(Partition.ordered("p"), List.of("first", "second"));
            try (Worker<String> worker = workers.worker(queue, String.class, (text, context) -> {
                handled.add(text);
                done.countDown();
                return Outcome.success();
            }, WorkerOptions.builder().build())) {
                worker.start();
                assertThat(done.await(10, TimeUnit.SECONDS)).as("both tasks handled").isTrue();
            }
            assertThat(handled).containsExactly("first", "second");
            assertThat(stores.forQueue(queue).stats().ackedTotal()).isEqualTo(2);
        }
    }
}
