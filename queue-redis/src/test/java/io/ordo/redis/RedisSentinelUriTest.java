package io.ordo.redis;

import io.ordo.domain.InvalidInputException;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code redis-sentinel://} URIs and the {@code ?wait=N&waitTimeout=T} publish confirmation. */
class RedisSentinelUriTest {

    @Test
    void a_sentinel_uri_names_the_sentinels_the_master_and_the_login_to_the_master() {
        RedisEndpoint endpoint = RedisEndpoint.parse("redis-sentinel://ordo:p%40ss@s1:26380,s2,[::1]:26381/2?master=orders");

        assertThat(endpoint.sentinel()).isTrue();
        assertThat(endpoint.cluster()).isFalse();
        assertThat(endpoint.sentinelMaster()).contains("orders");
        assertThat(endpoint.sentinels()).containsExactly(InetSocketAddress.createUnresolved("s1", 26380),
                InetSocketAddress.createUnresolved("s2", RedisEndpoint.DEFAULT_SENTINEL_PORT),
                InetSocketAddress.createUnresolved("::1", 26381));
        assertThat(endpoint.username()).contains("ordo");
        assertThat(endpoint.password()).contains("p@ss");
        assertThat(endpoint.database()).isEqualTo(2);
        assertThat(endpoint.address()).isEqualTo("s1:26380,s2:26379,[::1]:26381/orders");
        assertThat(endpoint.toString()).isEqualTo("redis-sentinel://ordo@s1:26380,s2:26379,[::1]:26381/2?master=orders")
                .doesNotContain("p@ss");
    }

    @Test
    void other_uris_are_not_sentinel_ones() {
        assertThat(RedisEndpoint.parse("redis://h:1").sentinel()).isFalse();
        assertThat(RedisEndpoint.parse("redis://h:1").sentinels()).isEmpty();
        assertThat(RedisEndpoint.parse("redis-cluster://h:1").sentinelMaster()).isEmpty();
    }

    @Test
    void a_sentinel_uri_without_master_or_with_a_bad_part_is_refused_with_the_reason_and_without_the_password() {
        assertThatThrownBy(() -> RedisEndpoint.parse("redis-sentinel://u:hunter2@s1:26379"))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("?master=NAME")
                .hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> RedisEndpoint.parse("redis-sentinel://s1,,s2?master=m"))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("every sentinel");
        assertThatThrownBy(() -> RedisEndpoint.parse("redis://h:1?master=m"))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("only applies to redis-sentinel");
        assertThatThrownBy(() -> RedisEndpoint.parse("rediss-sentinel://s1?master=m"))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("not supported");
        assertThatThrownBy(() -> RedisEndpoint.parse("redis://u:hunter2@h:1?timeout=5"))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("unknown parameter timeout=")
                .hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> RedisEndpoint.parse("redis-sentinel://s1?master=a&master=b"))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("twice");
    }

    @Test
    void wait_in_the_uri_confirms_publishes_by_replicas_with_a_default_timeout() {
        RedisOptions waiting = RedisOptions.create("redis-sentinel://s1?master=m&wait=1");
        RedisOptions timed = RedisOptions.create("redis://h:1?wait=2&waitTimeout=250ms");
        RedisOptions plain = RedisOptions.create("redis://h:1");

        assertThat(waiting.publishWaitReplicas()).isEqualTo(1);
        assertThat(waiting.publishWaitTimeout()).isEqualTo(RedisEndpoint.DEFAULT_WAIT_TIMEOUT);
        assertThat(timed.publishWaitReplicas()).isEqualTo(2);
        assertThat(timed.publishWaitTimeout()).isEqualTo(Duration.ofMillis(250));
        assertThat(timed.endpoint().toString()).isEqualTo("redis://h:1?wait=2&waitTimeout=250ms");
        assertThat(plain.publishWaitReplicas()).isZero();
    }

    @Test
    void the_builder_sets_or_overrides_the_wait_and_checks_it() {
        RedisOptions set = RedisOptions.builder("redis://h:1").publishWait(1, Duration.ofMillis(300)).build();
        RedisOptions off = RedisOptions.builder("redis://h:1?wait=1").publishWait(0, Duration.ofSeconds(1)).build();

        assertThat(set.publishWaitReplicas()).isEqualTo(1);
        assertThat(set.publishWaitTimeout()).isEqualTo(Duration.ofMillis(300));
        assertThat(set.toString()).contains("publishWait=1 replicas within PT0.3S");
        assertThat(off.publishWaitReplicas()).isZero();
        assertThatThrownBy(() -> RedisOptions.builder("redis://h:1").publishWait(-1, Duration.ofSeconds(1)).build())
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("publishWaitReplicas");
        assertThatThrownBy(() -> RedisOptions.builder("redis://h:1").commandTimeout(Duration.ofSeconds(2))
                .publishWait(1, Duration.ofSeconds(2)).build())
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("publishWaitTimeout")
                .hasMessageContaining("commandTimeout");
        assertThatThrownBy(() -> RedisOptions.builder("redis-cluster://n1:7000").publishWait(1, Duration.ofSeconds(1))
                .build()).isInstanceOf(InvalidInputException.class).hasMessageContaining("Cluster");
    }

    @Test
    void a_bad_wait_in_the_uri_is_refused_naming_it() {
        assertThatThrownBy(() -> RedisEndpoint.parse("redis://h:1?wait=many"))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("wait=");
        assertThatThrownBy(() -> RedisEndpoint.parse("redis://h:1?wait=1&waitTimeout=0ms"))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("waitTimeout=");
        assertThatThrownBy(() -> RedisEndpoint.parse("redis://h:1?wait=1&waitTimeout=2h"))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("waitTimeout=");
        assertThatThrownBy(() -> RedisEndpoint.parse("redis-cluster://n1:7000?wait=1"))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("Cluster");
    }
}
