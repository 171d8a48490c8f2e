package io.ordo.spring;

import io.ordo.redis.RedisEndpoint;
import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/** Where the starter connects: ordo.redis.uri, else spring.data.redis.url, else spring.data.redis's parts. */
class RedisUrisTest {
    @Test
    void ordo_uri_wins_over_spring_data_redis() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("ordo.redis.uri", "redis-cluster://a:7000,b:7001")
                .withProperty("spring.data.redis.url", "redis://other:6379")
                .withProperty("spring.data.redis.host", "third");
        assertThat(RedisUris.resolve(environment)).isEqualTo("redis-cluster://a:7000,b:7001");
    }

    @Test
    void spring_data_redis_url_wins_over_its_parts() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("spring.data.redis.url", "rediss://cache.example.com:6380/2")
                .withProperty("spring.data.redis.host", "third");
        assertThat(RedisUris.resolve(environment)).isEqualTo("rediss://cache.example.com:6380/2");
    }

    @Test
    void the_parts_make_a_uri_that_keeps_a_password_with_uri_characters() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("spring.data.redis.host", "redis.internal")
                .withProperty("spring.data.redis.port", "6390")
                .withProperty("spring.data.redis.username", "ordo")
                .withProperty("spring.data.redis.password", "p@ss:w/rd+ ?#")
                .withProperty("spring.data.redis.database", "3")
                .withProperty("spring.data.redis.ssl.enabled", "true");
        RedisEndpoint endpoint = RedisEndpoint.parse(RedisUris.resolve(environment));
        assertThat(endpoint.host()).isEqualTo("redis.internal");
        assertThat(endpoint.port()).isEqualTo(6390);
        assertThat(endpoint.username()).contains("ordo");
        assertThat(endpoint.password()).contains("p@ss:w/rd+ ?#");
        assertThat(endpoint.database()).isEqualTo(3);
        assertThat(endpoint.tls()).isTrue();
    }

    @Test
    void a_password_alone_and_the_defaults() {
        RedisEndpoint endpoint = RedisEndpoint.parse(RedisUris.resolve(new MockEnvironment()
                .withProperty("spring.data.redis.password", "secret")));
        assertThat(endpoint.password()).contains("secret");
        assertThat(endpoint.username()).isEmpty();
        assertThat(RedisUris.resolve(new MockEnvironment())).isEqualTo("redis://localhost:6379");
    }
}
