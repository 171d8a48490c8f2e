package io.ordo.redis;

import io.ordo.domain.QueueName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class RedisScriptTest {
    /** Scripts that add data: Redis refuses them up front over maxmemory (no allow-oom). */
    private static final List<RedisScript> GROWING = List.of(RedisScript.PUBLISH, RedisScript.REDRIVE,
            RedisScript.REDRIVE_ALL, RedisScript.BLOCK_PARTITION, RedisScript.CONFIGURE);
    private static final List<RedisScript> READ_ONLY = List.of(RedisScript.GET, RedisScript.STATS,
            RedisScript.SETTINGS, RedisScript.DEAD_LETTERS, RedisScript.INSPECT);

    @Test
    void every_script_starts_with_its_shebang_and_carries_the_shared_library() {
        for (RedisScript script : RedisScript.values()) {
            assertThat(script.body()).as(script.fileName()).startsWith("#!lua");
            assertThat(script.body()).as(script.fileName()).contains("local O = {}");
        }
    }

    @Test
    void flags_refuse_growing_scripts_over_maxmemory_and_let_the_rest_drain() {
        for (RedisScript script : RedisScript.values()) {
            String shebang = script.body().lines().findFirst().orElseThrow();
            if (GROWING.contains(script)) {
                assertThat(shebang).as(script.fileName()).isEqualTo("#!lua");
            } else if (READ_ONLY.contains(script)) {
                assertThat(shebang).as(script.fileName()).isEqualTo("#!lua flags=no-writes");
            } else {
                assertThat(shebang).as(script.fileName()).isEqualTo("#!lua flags=allow-oom");
            }
        }
    }

    @Test
    void the_sha_is_the_sha1_of_the_body_redis_receives() throws Exception {
        for (RedisScript script : RedisScript.values()) {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(script.body().getBytes(StandardCharsets.UTF_8));
            assertThat(script.sha()).isEqualTo(HexFormat.of().formatHex(digest));
        }
    }

    @Test
    void every_script_resource_is_listed_once() throws IOException, URISyntaxException {
        Path folder = Path.of(RedisScript.class.getResource("/io/ordo/redis/scripts/common.lua").toURI()).getParent();
        List<String> files;
        try (Stream<Path> paths = Files.list(folder)) {
            files = paths.map(path -> path.getFileName().toString()).filter(name -> !name.equals("common.lua"))
                    .sorted().toList();
        }
        assertThat(Arrays.stream(RedisScript.values()).map(RedisScript::fileName).sorted().toList())
                .isEqualTo(files);
    }

    @Test
    void the_library_binds_the_fixed_keys_in_the_order_the_key_schema_sends_them() throws IOException {
        String common;
        try (InputStream in = RedisScript.class.getResourceAsStream("/io/ordo/redis/scripts/common.lua")) {
            common = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Matcher binding = Pattern.compile("O\\.K_(\\w+)\\s*=\\s*KEYS\\[(\\d+)]").matcher(common);
        List<String> bound = new ArrayList<>();
        while (binding.find()) {
            assertThat(Integer.parseInt(binding.group(2))).isEqualTo(bound.size() + 1);
            bound.add(binding.group(1).toLowerCase().replace('_', '-'));
        }
        List<String> expected = KeySchema.FIXED_KINDS.stream().map(kind -> kind.replace("readyat-count", "readyat-n"))
                .toList();
        assertThat(bound).isEqualTo(expected);
        assertThat(KeySchema.of(QueueName.of("q")).fixedKeys().length).isEqualTo(bound.size());
    }
}
