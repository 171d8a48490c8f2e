package io.ordo.redis;

import io.ordo.domain.QueueName;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KeySchemaTest {

    @Test
    void every_key_of_a_queue_sits_under_its_hash_tag() {
        KeySchema keys = KeySchema.of(QueueName.of("orders.eu-1"));

        assertThat(keys.prefix()).isEqualTo("ordo:{orders.eu-1}:");
        assertThat(keys.key("tasks")).isEqualTo("ordo:{orders.eu-1}:tasks");
        assertThat(Arrays.stream(keys.declaredKeys()).map(key -> new String(key, StandardCharsets.UTF_8)))
                .allSatisfy(key -> assertThat(key).startsWith("ordo:{orders.eu-1}:"));
        assertThat(new String(keys.signalKey(), StandardCharsets.UTF_8)).isEqualTo("ordo:{orders.eu-1}:signal");
    }

    @Test
    void partition_codes_appear_in_keys_as_they_are_when_plain_else_hex_encoded() {
        KeySchema keys = KeySchema.of(QueueName.of("q"));

        assertThat(keys.partitionRunKey("!acct-42_eu.1")).isEqualTo("ordo:{q}:pr=!acct-42_eu.1");
        assertThat(keys.partitionRunKey("!a:b}")).isEqualTo("ordo:{q}:pr:21613a627d");
        assertThat(keys.partitionRunKey("\u00e4")).isEqualTo("ordo:{q}:pr:c3a4");
        assertThat(keys.partitionRunKey("a*")).isEqualTo("ordo:{q}:pr:612a");
    }

    @Test
    void a_shard_is_a_queue_of_its_own_under_the_tag_queue_hash_index() {
        KeySchema shard = KeySchema.forShard(QueueName.of("orders"), 3);

        assertThat(shard.queue()).isEqualTo(QueueName.of("orders"));
        assertThat(shard.tag()).isEqualTo("orders#3");
        assertThat(shard.key("tasks")).isEqualTo("ordo:{orders#3}:tasks");
        assertThat(Arrays.stream(shard.declaredKeys()).map(key -> new String(key, StandardCharsets.UTF_8)))
                .allSatisfy(key -> assertThat(key).startsWith("ordo:{orders#3}:"));
        assertThatThrownBy(() -> KeySchema.forShard(QueueName.of("orders"), -1))
                .isInstanceOf(io.ordo.domain.InvalidInputException.class).hasMessageContaining("shard");
        assertThatThrownBy(() -> KeySchema.forShard(QueueName.of("orders"), KeySchema.MAX_SHARDS))
                .isInstanceOf(io.ordo.domain.InvalidInputException.class);
    }

    @Test
    void only_fixed_kinds_name_keys() {
        assertThatThrownBy(() -> KeySchema.of(QueueName.of("q")).key("pr:00"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
