package io.ordo.redis;

import io.ordo.ports.QueueDataException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Text to Redis bytes and back is exact or an error: no '?' for a lone surrogate, no U+FFFD for foreign bytes. */
class Utf8Test {
    @Test
    void every_code_point_round_trips() {
        StringBuilder all = new StringBuilder();
        for (int codePoint = 0; codePoint <= Character.MAX_CODE_POINT; codePoint += 97) {
            if (Character.getType(codePoint) != Character.SURROGATE) {
                all.appendCodePoint(codePoint);
            }
        }
        all.append("\uFFFD\uD83D\uDE00\uDBFF\uDFFF");
        String text = all.toString();

        assertThat(Utf8.decode(Utf8.encode(text))).isEqualTo(text);
    }

    @Test
    void a_lone_surrogate_is_never_written_as_a_question_mark() {
        assertThat("a\uD800".getBytes(StandardCharsets.UTF_8)).as("what the JDK would write")
                .isEqualTo("a?".getBytes(StandardCharsets.UTF_8));

        assertThatThrownBy(() -> Utf8.encode("a\uD800")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unpaired surrogate");
        assertThatThrownBy(() -> new Args().add("\uDC00x"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KeySchema.namePart("p\uD800")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void bytes_that_are_not_utf8_are_refused_as_foreign_data_not_read_as_replacement_characters() {
        for (byte[] foreign : new byte[][] {{(byte) 0xff}, {'a', (byte) 0xc3}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
                {(byte) 0xc0, (byte) 0xaf}}) {
            assertThatThrownBy(() -> Utf8.decode(foreign)).isInstanceOf(QueueDataException.class)
                    .hasMessageContaining("not UTF-8");
        }
        assertThat(Utf8.decode("\uFFFD".getBytes(StandardCharsets.UTF_8))).as("a real U+FFFD is text")
                .isEqualTo("\uFFFD");
    }
}
