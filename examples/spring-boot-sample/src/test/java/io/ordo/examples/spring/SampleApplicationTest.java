package io.ordo.examples.spring;

import io.ordo.redis.testing.RedisServer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The sample starts against a private Redis, takes deposits over HTTP, books them and says it is healthy. */
class SampleApplicationTest {
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void deposits_posted_over_http_are_booked_by_the_handler_bean() throws Exception {
        try (RedisServer redis = RedisServer.start();
             ConfigurableApplicationContext app = SpringApplication.run(SampleApplication.class,
                     "--ordo.redis.uri=" + redis.uri(), "--server.port=0", "--server.address=127.0.0.1")) {
            String base = "http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port");

            HttpResponse<String> posted = send(HttpRequest.newBuilder(URI.create(base + "/accounts/acct-1/deposits?cents=100"))
                    .POST(HttpRequest.BodyPublishers.noBody()).build());
            assertThat(posted.statusCode()).isEqualTo(202);
            assertThat(posted.body()).contains("\"task\"");
            send(HttpRequest.newBuilder(URI.create(base + "/accounts/acct-1/deposits?cents=-30"))
                    .POST(HttpRequest.BodyPublishers.noBody()).build());

            String balance = "";
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (!balance.contains("\"cents\":70") && System.nanoTime() < deadline) {
                Thread.sleep(100);
                balance = send(HttpRequest.newBuilder(URI.create(base + "/accounts/acct-1")).build()).body();
            }
            assertThat(balance).as("both deposits booked within 20 s").contains("\"cents\":70");

            HttpResponse<String> health = send(HttpRequest.newBuilder(URI.create(base + "/actuator/health")).build());
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body()).contains("\"status\":\"UP\"").contains("\"ordo\"");
        }
    }

    private HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
