package io.ordo.spring;

import io.ordo.redis.testing.RedisServer;
import io.ordo.runtime.worker.Outcome;
import io.ordo.runtime.worker.TaskHandler;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The actuator's health follows the workers' readiness: DOWN while Redis is stopped, UP once it is back. */
@Tag("full")
class OrdoHealthTest {
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class App {
        @Bean
        @OrdoWorker(queue = "emails")
        TaskHandler<String> emails() {
            return (email, context) -> Outcome.success();
        }
    }

    @Test
    void health_is_down_while_redis_is_stopped_and_up_when_it_is_back() throws InterruptedException {
        try (RedisServer redis = RedisServer.start();
             ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
                     .web(WebApplicationType.NONE)
                     .properties("ordo.redis.uri=" + redis.uri(), "ordo.worker.grace-period=2s",
                             "management.endpoint.health.show-details=always")
                     .run()) {
            HealthEndpoint health = context.getBean(HealthEndpoint.class);
            awaitStatus(health, Status.UP);
            assertThat(health.healthForPath("ordo")).as("the ordo component").isNotNull();

            redis.stop();
            awaitStatus(health, Status.DOWN);
            assertThat(health.healthForPath("ordo").getStatus()).isEqualTo(Status.DOWN);

            redis.startAgain();
            awaitStatus(health, Status.UP);
            assertThat(health.healthForPath("ordo").getStatus()).isEqualTo(Status.UP);
        }
    }

    private static void awaitStatus(HealthEndpoint health, Status expected) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        Status status = health.health().getStatus();
        while (!status.equals(expected) && System.nanoTime() < deadline) {
            Thread.sleep(100);
            status = health.health().getStatus();
        }
        assertThat(status).as("the application's health within %s", PATIENCE).isEqualTo(expected);
    }
}
