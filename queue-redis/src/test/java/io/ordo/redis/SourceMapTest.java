package io.ordo.redis;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class SourceMapTest {
    private static final List<String> LIBRARY = RedisLibrary.CURRENT.code().lines().toList();

    @Test
    void every_line_of_the_library_from_a_script_file_is_placed_at_that_file_line() {
        int placed = 0;
        for (int line = 1; line <= LIBRARY.size(); line++) {
            String error = "ERR user_function:" + line + ": boom script: f, on @user_function:" + line + ".";
            String located = RedisLibrary.CURRENT.locate(error);
            Matcher place = Pattern.compile("([a-z_]+\\.lua):(\\d+): boom")
                    .matcher(located);
            if (located.contains(LuaConstants.SOURCE)) {
                assertThat(LIBRARY.get(line - 1)).as("library line " + line + ", a constant from Java")
                        .matches("O\\.[A-Z_]+ = -?\\d+");
                continue;
            }
            if (!place.find()) {
                assertThat(located).as("library line " + line + ", not from a file").containsAnyOf("(registration of ",
                        "(library header)");
                assertThat(LIBRARY.get(line - 1)).as("library line " + line).doesNotContain("O.");
                continue;
            }
            List<String> file = RedisScript.read(place.group(1)).lines().toList();
            int fileLine = Integer.parseInt(place.group(2));
            if (fileLine == file.size() + 1) {
                assertThat(LIBRARY.get(line - 1)).as("the blank line after a shared file").isEmpty();
                continue;
            }
            assertThat(file.get(fileLine - 1)).as("library line " + line + " placed at " + place.group())
                    .isEqualTo(LIBRARY.get(line - 1));
            placed++;
        }
        assertThat(placed).as("lines placed in a file").isGreaterThan(LIBRARY.size() * 9 / 10);
    }

    @Test
    void every_place_in_a_message_is_replaced_and_the_rest_is_kept() {
        String located = RedisLibrary.CURRENT.locate("ERR user_function:2: x script: f, on @user_function:2.");

        assertThat(located).doesNotContain("user_function")
                .matches("ERR [a-z_]+\\.lua:\\d+: x script: f, on @[a-z_]+\\.lua:\\d+\\.");
    }

    @Test
    void a_line_past_the_library_and_a_message_without_a_place_stay_as_they_are() {
        assertThat(RedisLibrary.CURRENT.locate("ERR user_function:999999999: x")).isEqualTo("ERR user_function:999999999: x");
        assertThat(RedisLibrary.CURRENT.locate("WRONGTYPE Operation")).isEqualTo("WRONGTYPE Operation");
    }
}
