package io.ordo.spring;

import io.ordo.domain.Partition;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.redis.testing.RedisServer;
import io.ordo.runtime.worker.Outcome;
import io.ordo.runtime.worker.TaskHandler;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** ordo.backend=jedis: the Jedis store on the Redis that spring.data.redis.url names, a handler declared with payloadType. */
@Tag("full")
class OrdoJedisBackendTest {
    @Configuration(proxyBeanMethods = false)
    static class JedisHandler {
        static final CountDownLatch DONE = new CountDownLatch(1);

        @Bean
        @OrdoWorker(queue = "greetings", payloadType = String.class)
        TaskHandler<Object> greetings() {
            return (greeting, context) -> {
                if ("hello over jedis".equals(greeting)) {
                    DONE.countDown();
                }
                return Outcome.success();
            };
        }
    }

    @Test
    void the_jedis_backend_connects_where_spring_data_redis_says() {
        try (RedisServer redis = RedisServer.start()) {
            new ApplicationContextRunner()
                    .withConfiguration(AutoConfigurations.of(OrdoAutoConfiguration.class))
                    .withPropertyValues("ordo.backend=jedis", "spring.data.redis.url=" + redis.uri(),
                            "ordo.worker.grace-period=1s")
                    .withUserConfiguration(JedisHandler.class)
                    .run(context -> {
                        assertThat(context.getBean(TaskStoreFactory.class)).isInstanceOf(RedisTaskStoreFactory.class);
                        context.getBean(OrdoPublishers.class).publisher("greetings", String.class)
                                .publish(Partition.regular("a"), "hello over jedis");
                        assertThat(JedisHandler.DONE.await(20, TimeUnit.SECONDS)).as("handled within 20 s").isTrue();
                    });
        }
    }

}
