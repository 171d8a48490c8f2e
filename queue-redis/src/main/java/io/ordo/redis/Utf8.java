package io.ordo.redis;

import io.ordo.domain.Text;
import io.ordo.ports.QueueDataException;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The one place the Redis stores turn text into the bytes Redis keeps and back: exact both ways or an
 * error, never a substitute. {@code String.getBytes} writes {@code ?} for an unpaired surrogate and
 * {@code new String} reads U+FFFD for bytes that are not UTF-8, so two distinct strings could be kept
 * as the same bytes; the model refuses such text when it is built (docs/semantics.md, "Text"), and
 * this holds the line should any reach the wire anyway.
 */
final class Utf8 {
    private Utf8() {
    }

    static byte[] encode(String text) {
        int at = Text.firstUnpairedSurrogate(text);
        if (at >= 0) {
            throw new IllegalArgumentException("text with an unpaired surrogate (index " + at
                    + ") has no UTF-8 form; the model refuses it before it gets here");
        }
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static String decode(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        // new String puts U+FFFD where the bytes are not UTF-8: only then is the exact (slower) look needed
        if (text.indexOf(Text.REPLACEMENT) >= 0) {
            try {
                StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
            } catch (CharacterCodingException e) {
                throw new QueueDataException("Redis holds " + bytes.length + " bytes that are not UTF-8 text where"
                        + " Ordo keeps text (written by something else than Ordo?)", e);
            }
        }
        return text;
    }
}
