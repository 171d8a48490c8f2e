package io.ordo.redis;

import io.ordo.domain.InvalidInputException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RedisEndpointTest {

    @Test
    void a_plain_uri_gives_host_port_and_database_zero() {
        RedisEndpoint endpoint = RedisEndpoint.parse("redis://cache.internal:6380");

        assertThat(endpoint.host()).isEqualTo("cache.internal");
        assertThat(endpoint.port()).isEqualTo(6380);
        assertThat(endpoint.tls()).isFalse();
        assertThat(endpoint.database()).isZero();
        assertThat(endpoint.username()).isEmpty();
        assertThat(endpoint.password()).isEmpty();
        assertThat(endpoint.address()).isEqualTo("cache.internal:6380");
    }

    @Test
    void the_port_defaults_to_6379() {
        assertThat(RedisEndpoint.parse("redis://localhost").port()).isEqualTo(RedisEndpoint.DEFAULT_PORT);
    }

    @Test
    void rediss_means_tls() {
        assertThat(RedisEndpoint.parse("rediss://secure.example:6390").tls()).isTrue();
    }

    @Test
    void an_acl_user_and_password_are_read_and_percent_decoded() {
        RedisEndpoint endpoint = RedisEndpoint.parse("redis://ordo%2Dapp:p%40ss%3Aw+rd@h:1/4");

        assertThat(endpoint.username()).contains("ordo-app");
        assertThat(endpoint.password()).contains("p@ss:w+rd");
        assertThat(endpoint.database()).isEqualTo(4);
    }

    @Test
    void a_password_alone_is_read_as_redis_cli_reads_it() {
        RedisEndpoint withoutUser = RedisEndpoint.parse("redis://secret@h:1");
        RedisEndpoint emptyUser = RedisEndpoint.parse("redis://:secret@h:1");

        assertThat(withoutUser.username()).isEmpty();
        assertThat(withoutUser.password()).contains("secret");
        assertThat(emptyUser.username()).isEmpty();
        assertThat(emptyUser.password()).contains("secret");
    }

    @Test
    void an_ipv6_host_is_unbracketed_and_bracketed_again_in_the_address() {
        RedisEndpoint endpoint = RedisEndpoint.parse("redis://[::1]:7000");

        assertThat(endpoint.host()).isEqualTo("::1");
        assertThat(endpoint.address()).isEqualTo("[::1]:7000");
    }

    @Test
    void the_password_never_shows_in_text() {
        RedisEndpoint endpoint = RedisEndpoint.parse("redis://app:hunter2@h:1/2");

        assertThat(endpoint.toString()).isEqualTo("redis://app@h:1/2").doesNotContain("hunter2");
        assertThat(RedisOptions.create("redis://app:hunter2@h:1").toString()).doesNotContain("hunter2");
    }

    @Test
    void a_cluster_uri_lists_its_seed_nodes_with_one_user_and_tls_for_all() {
        RedisEndpoint endpoint = RedisEndpoint.parse("rediss-cluster://app:p%40ss@n1:7000,n2,[::1]:7002");

        assertThat(endpoint.cluster()).isTrue();
        assertThat(endpoint.tls()).isTrue();
        assertThat(endpoint.clusterSeeds()).extracting(seed -> seed.getHostString() + " " + seed.getPort())
                .containsExactly("n1 7000", "n2 6379", "::1 7002");
        assertThat(endpoint.username()).contains("app");
        assertThat(endpoint.password()).contains("p@ss");
        assertThat(endpoint.address()).isEqualTo("n1:7000,n2:6379,[::1]:7002");
        assertThat(endpoint.toString()).isEqualTo("rediss-cluster://app@n1:7000,n2:6379,[::1]:7002")
                .doesNotContain("p@ss");
        assertThat(RedisEndpoint.parse("redis-cluster://n1:7000").tls()).isFalse();
        assertThat(RedisEndpoint.parse("redis://n1:7000").cluster()).isFalse();
        assertThat(RedisEndpoint.parse("redis://n1:7000").clusterSeeds()).isEmpty();
    }

    @Test
    void a_cluster_uri_without_nodes_or_with_a_database_is_refused() {
        assertThatThrownBy(() -> RedisEndpoint.parse("redis-cluster://n1:7000/2"))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("database 0");
        assertThatThrownBy(() -> RedisEndpoint.parse("redis-cluster://n1:7000,,n2"))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("every node");
        assertThatThrownBy(() -> RedisEndpoint.parse("redis-cluster://u:hunter2@"))
                .isInstanceOf(InvalidInputException.class).hasMessageNotContaining("hunter2");
        assertThat(RedisEndpoint.parse("redis-cluster://n1:7000/0").database()).isZero();
    }

    @Test
    void bad_uris_are_refused_with_the_reason_and_without_the_password() {
        assertThatThrownBy(() -> RedisEndpoint.parse("http://h:1")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("redis://");
        assertThatThrownBy(() -> RedisEndpoint.parse("redis://u:hunter2@h:1/db"))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("database number")
                .hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> RedisEndpoint.parse(" ")).isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> RedisEndpoint.parse("redis://")).isInstanceOf(InvalidInputException.class);
    }

    @Test
    void options_take_the_defaults_unless_told_otherwise() {
        RedisOptions defaults = RedisOptions.create("redis://h:1");
        RedisOptions tuned = RedisOptions.builder("redis://h:1").retries(0).poolSize(4).build();

        assertThat(defaults.commandTimeout()).isEqualTo(RedisOptions.DEFAULT_COMMAND_TIMEOUT);
        assertThat(defaults.retries()).isEqualTo(RedisOptions.DEFAULT_RETRIES);
        assertThat(tuned.retries()).isZero();
        assertThat(tuned.poolSize()).isEqualTo(4);
        assertThatThrownBy(() -> RedisOptions.builder("redis://h:1").poolSize(0).build())
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("poolSize");
    }
}
