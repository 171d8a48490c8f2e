package io.ordo.redis;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class RedisScriptTest {
    /** Functions that add data: Redis refuses them up front over maxmemory (no allow-oom). */
    private static final List<RedisScript> GROWING = List.of(RedisScript.PUBLISH, RedisScript.REDRIVE,
            RedisScript.REDRIVE_ALL, RedisScript.BLOCK_PARTITION, RedisScript.CONFIGURE, RedisScript.SCHEDULE_PUT,
            RedisScript.FIRE_SCHEDULE, RedisScript.GROUP_CREATE, RedisScript.GROUP_COPY);
    private static final List<RedisScript> READ_ONLY = List.of(RedisScript.GET, RedisScript.STATS,
            RedisScript.SETTINGS, RedisScript.DEAD_LETTERS, RedisScript.INSPECT, RedisScript.SCHEDULES, RedisScript.GROUPS,
            RedisScript.PARTITION_TASKS, RedisScript.DELAYED_TASKS, RedisScript.IN_FLIGHT_TASKS, RedisScript.FIND_DEAD_LETTERS,
            RedisScript.TASK_EVENTS, RedisScript.COMPLETED_TASKS);
    /** The library's shared parts, which are not operations of their own. */
    private static final Set<String> SHARED = Stream.concat(RedisLibrary.SHARED.stream(), Stream.of(RedisLibrary.PRELUDE))
            .collect(java.util.stream.Collectors.toSet());

    @Test
    void flags_refuse_growing_functions_over_maxmemory_and_let_the_rest_drain() {
        for (RedisScript script : RedisScript.values()) {
            if (GROWING.contains(script)) {
                assertThat(script.flags()).as(script.fileName()).isEmpty();
            } else if (READ_ONLY.contains(script)) {
                assertThat(script.flags()).as(script.fileName()).containsExactly("no-writes");
            } else {
                assertThat(script.flags()).as(script.fileName()).containsExactly("allow-oom");
            }
        }
    }

    @Test
    void the_library_registers_every_operation_once_under_its_versioned_name_with_its_flags() {
        String code = RedisLibrary.CURRENT.code();
        assertThat(code).startsWith("#!lua name=" + RedisLibrary.CURRENT.name() + "\n");
        for (RedisScript script : RedisScript.values()) {
            String registration = "function_name = '" + script.functionName() + "'";
            assertThat(code.split(Pattern.quote(registration), -1)).as(script.fileName()).hasSize(2);
            assertThat(script.functionName()).isEqualTo(RedisLibrary.CURRENT.name() + "_" + script.operation());
        }
        assertThat(code).contains("function_name = '" + RedisScript.INSPECT.functionName() + "', flags = { 'no-writes' }");
    }

    @Test
    void the_version_is_a_digest_of_the_library_text() {
        assertThat(RedisLibrary.CURRENT.version()).matches("[0-9a-f]{12}");
        assertThat(RedisLibrary.CURRENT.code()).doesNotContain("@VERSION@");
    }

    @Test
    void every_operation_resource_is_listed_once() throws IOException, URISyntaxException {
        Path folder = Path.of(RedisScript.class.getResource(RedisScript.LOCATION + RedisLibrary.PRELUDE).toURI()).getParent();
        List<String> files;
        try (Stream<Path> paths = Files.list(folder)) {
            files = paths.map(path -> path.getFileName().toString()).filter(name -> !SHARED.contains(name))
                    .sorted().toList();
        }
        assertThat(Arrays.stream(RedisScript.values()).map(RedisScript::fileName).sorted().toList())
                .isEqualTo(files);
    }

    @Test
    void the_library_lists_and_binds_the_fixed_keys_in_the_key_schemas_order() {
        String common = RedisScript.read("keys.lua");
        Matcher kinds = Pattern.compile("O\\.KINDS = \\{(.*?)\\n}", Pattern.DOTALL).matcher(common);
        assertThat(kinds.find()).isTrue();
        List<String> listed = new ArrayList<>();
        Matcher kind = Pattern.compile("'([a-z-]+)'").matcher(kinds.group(1));
        while (kind.find()) {
            listed.add(kind.group(1));
        }
        assertThat(listed).isEqualTo(KeySchema.FIXED_KINDS);

        List<String> bound = new ArrayList<>();
        Matcher local = Pattern.compile("K_([A-Z_]+)").matcher(RedisScript.read("function_prelude.lua"));
        while (local.find()) {
            bound.add(local.group(1).toLowerCase().replace('_', '-'));
        }
        assertThat(bound).isEqualTo(KeySchema.FIXED_KINDS.stream()
                .map(name -> name.replace("readyat-count", "readyat-n")).toList());
    }
}
