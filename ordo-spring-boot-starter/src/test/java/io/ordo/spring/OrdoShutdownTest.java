package io.ordo.spring;

import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.lettuce.LettuceTaskStores;
import io.ordo.ports.QueueStats;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.testing.RedisServer;
import io.ordo.runtime.Publisher;
import io.ordo.runtime.worker.Outcome;
import io.ordo.runtime.worker.TaskContext;
import io.ordo.runtime.worker.TaskHandler;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Closing the application context drains its workers: the running handler finishes, nothing is lost. */
@Tag("full")
class OrdoShutdownTest {
    record Job(int number) {
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class App {
        @Bean
        SlowJobs slowJobs() {
            return new SlowJobs();
        }
    }

    /** One handler thread; each job takes 1.5 s. */
    @OrdoWorker(queue = "jobs", concurrency = 1)
    static class SlowJobs implements TaskHandler<Job> {
        static final CountDownLatch STARTED = new CountDownLatch(1);
        static final List<Integer> FINISHED = new CopyOnWriteArrayList<>();

        @Override
        public Outcome handle(Job job, TaskContext context) throws InterruptedException {
            STARTED.countDown();
            Thread.sleep(1_500);
            FINISHED.add(job.number());
            return Outcome.success();
        }
    }

    @Test
    void closing_the_context_lets_the_running_handler_finish_and_returns_the_rest() throws InterruptedException {
        try (RedisServer redis = RedisServer.start()) {
            ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
                    .web(WebApplicationType.NONE)
                    .properties("ordo.redis.uri=" + redis.uri(), "ordo.worker.grace-period=10s")
                    .run();
            Publisher<Job> jobs = context.getBean(OrdoPublishers.class).publisher("jobs", Job.class);
            for (int i = 1; i <= 4; i++) {
                jobs.publish(Partition.ordered("one-at-a-time"), new Job(i));
            }
            assertThat(SlowJobs.STARTED.await(20, TimeUnit.SECONDS)).as("the first job started").isTrue();

            context.close(); // returns once the workers have stopped

            assertThat(SlowJobs.FINISHED).as("the running job finished, no other started").containsExactly(1);
            try (TaskStoreFactory stores = LettuceTaskStores.factory(RedisOptions.create(redis.uri()))) {
                QueueStats stats = stores.forQueue(QueueName.of("jobs")).stats();
                assertThat(stats.ready()).as("the three jobs not started are back, ready").isEqualTo(3);
                assertThat(stats.inFlight()).isZero();
                assertThat(stats.dead()).isZero();
            }
        }
    }
}
