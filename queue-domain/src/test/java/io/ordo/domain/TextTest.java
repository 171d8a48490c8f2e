package io.ordo.domain;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TextTest {
    private static final String EMOJI = "\uD83D\uDE00";

    @Test
    void truncation_never_splits_a_surrogate_pair_and_counts_code_points() {
        assertThat(Text.truncate("ab" + EMOJI + "cd", 4)).isEqualTo("ab" + EMOJI + "\u2026");
        assertThat(Text.truncate(EMOJI.repeat(3), 3)).isEqualTo(EMOJI.repeat(3));
        assertThat(Text.truncate(EMOJI.repeat(4), 3)).isEqualTo(EMOJI.repeat(2) + "\u2026");
        assertThat(Text.prefix("a" + EMOJI + "b", 2)).isEqualTo("a" + EMOJI);
        assertThat(Text.prefix("abc", 5)).isEqualTo("abc");
    }

    @Test
    void unpaired_surrogates_are_found_wherever_they_stand_and_pairs_are_not() {
        assertThat(Text.firstUnpairedSurrogate("a" + EMOJI + "b")).isEqualTo(-1);
        assertThat(Text.firstUnpairedSurrogate("\uD83D")).isZero();
        assertThat(Text.firstUnpairedSurrogate("ab\uDE00")).isEqualTo(2);
        assertThat(Text.firstUnpairedSurrogate(EMOJI + "\uDE00\uD83D")).isEqualTo(2);
        assertThat(Text.firstUnpairedSurrogate("\uD83D" + EMOJI)).isZero();
    }

    @Test
    void replacing_unpaired_surrogates_keeps_pairs_and_everything_else() {
        assertThat(Text.withUnpairedSurrogatesReplaced("a\uD83Db" + EMOJI + "\uDE00"))
                .isEqualTo("a\uFFFDb" + EMOJI + "\uFFFD");
        String clean = "a\u0000\n" + EMOJI;
        assertThat(Text.withUnpairedSurrogatesReplaced(clean)).isSameAs(clean);
    }
}
