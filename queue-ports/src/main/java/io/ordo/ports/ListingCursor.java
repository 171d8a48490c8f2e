package io.ordo.ports;

import io.ordo.domain.InvalidInputException;
import io.ordo.domain.Validate;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * Where a cursor-paged listing goes on: opaque to its caller, made and read by the store that gave it. A cursor
 * is a few text parts (none holding a line feed), as base64url without padding, so it travels in an address as
 * it is; {@link #START} (empty) is the first page.
 */
public final class ListingCursor {
    public static final String START = "";
    /** The longest cursor a listing takes. */
    public static final int MAX_LENGTH = 2_048;
    private static final String SEPARATOR = "\n";

    private ListingCursor() {
    }

    /** The cursor of these parts. */
    public static String of(String... parts) {
        for (String part : parts) {
            if (part.contains(SEPARATOR)) {
                throw new IllegalArgumentException("a cursor part holds a line feed: " + part);
            }
        }
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString(String.join(SEPARATOR, parts).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The parts of a cursor a listing of {@code count} parts gave; empty for {@link #START}. Anything else is an
     * {@link InvalidInputException} naming {@code cursor}.
     */
    public static List<String> parts(String cursor, int count) {
        Validate.notNull("cursor", cursor);
        if (cursor.isEmpty()) {
            return List.of();
        }
        if (cursor.length() > MAX_LENGTH) {
            throw new InvalidInputException("cursor", "must be at most " + MAX_LENGTH + " characters, was " + cursor.length());
        }
        String text;
        try {
            text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException notBase64) {
            throw notOurs();
        }
        List<String> parts = Arrays.asList(text.split(SEPARATOR, -1));
        if (parts.size() != count) {
            throw notOurs();
        }
        return List.copyOf(parts);
    }

    private static InvalidInputException notOurs() {
        return new InvalidInputException("cursor", "is not a cursor this listing gave; start again with an empty one");
    }
}
