package io.ordo.redis;

import org.junit.jupiter.api.Test;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each script carries only the library statements it uses, transitively, in the library's order. */
class ScriptAssemblerTest {
    private static final String LIBRARY = """
            -- the library
            local O = {}
            O.K_META = KEYS[1]
            O.K_TASKS = KEYS[2]
            O.cache = {}

            -- reads one field
            function O.read(field)
                return O.call('HGET', O.K_META, field)
            end
            function O.call(...) return redis.call(...) end
            function O.unused() return O.K_TASKS end

            local read = O.read
            local unused = O.unused
            local call = O.call

            local function start(clock)
                return O.cache
            end
            """;

    @Test
    void keeps_what_the_body_names_and_what_that_needs_in_the_library_order() {
        String script = ScriptAssembler.assemble("#!lua flags=no-writes\nstart('')\nreturn read('x')\n", LIBRARY);

        assertThat(script).isEqualTo("""
                #!lua flags=no-writes
                -- the library
                local O = {}
                O.K_META = KEYS[1]
                O.cache = {}

                -- reads one field
                function O.read(field)
                    return O.call('HGET', O.K_META, field)
                end
                function O.call(...) return redis.call(...) end

                local read = O.read

                local function start(clock)
                    return O.cache
                end
                start('')
                return read('x')
                """);
    }

    @Test
    void names_in_comments_do_not_count() {
        String script = ScriptAssembler.assemble("#!lua\n-- unused is not called here\nreturn read('x') -- nor here: unused\n",
                LIBRARY);

        assertThat(script).doesNotContain("function O.unused");
        assertThat(ScriptAssembler.withoutComments("local a = '--kept' -- cut\n")).isEqualTo("local a = '--kept' \n");
    }

    @Test
    void a_script_without_a_shebang_is_refused() {
        assertThatThrownBy(() -> ScriptAssembler.assemble("return 1\n", LIBRARY))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("#!lua");
    }

    @Test
    void the_store_scripts_leave_out_what_they_do_not_use() {
        assertThat(RedisScript.ACK.body()).doesNotContain("function O.give_back", "function O.promote_due",
                "function O.redrive");
        assertThat(RedisScript.PUBLISH.body()).doesNotContain("function O.give_back", "function O.leave_flight");
        assertThat(RedisScript.REJECT.body()).contains("function O.give_back");
        for (RedisScript script : RedisScript.values()) {
            System.out.printf("script %s: %,d characters with the library statements it uses%n", script.fileName(),
                    script.body().length());
        }
    }

    @Test
    void every_library_name_a_script_uses_is_defined_in_it() {
        Pattern localAlias = Pattern.compile("(?m)^local (\\w+) = O\\.\\w+$");
        String library = readLibrary();
        Matcher aliases = localAlias.matcher(library);
        while (aliases.find()) {
            String name = aliases.group(1);
            Pattern use = Pattern.compile("(?<![.\\w:])" + name + "\\b");
            for (RedisScript script : RedisScript.values()) {
                String body = ScriptAssembler.withoutComments(script.body());
                if (use.matcher(body).find()) {
                    assertThat(body).as(script.fileName() + " uses " + name).contains("local " + name + " = O." + name);
                }
            }
        }
    }

    private static String readLibrary() {
        try (var in = RedisScript.class.getResourceAsStream("/io/ordo/redis/scripts/common.lua")) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
