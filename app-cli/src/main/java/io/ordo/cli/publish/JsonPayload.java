package io.ordo.cli.publish;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.ordo.domain.InvalidInputException;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Checks that bytes are one JSON value without turning them into anything: the bytes that pass are
 * the bytes published, so no digit, duplicate key or escape is lost or rewritten
 * (docs/decisions/cli-publish-file.md). Standard JSON only: no {@code NaN}, {@code Infinity},
 * comments or trailing content.
 */
public final class JsonPayload {
    private static final JsonFactory FACTORY = new JsonFactory();

    private JsonPayload() {
    }

    /**
     * Refuses bytes that are not exactly one JSON value, and JSON {@code null}: the library refuses a null
     * payload, and the CLI answers the same (docs/decisions/cli-publish-file.md). {@code where} names the
     * input, e.g. {@code payload} or {@code signups.jsonl line 7}.
     */
    public static void check(byte[] json, String where) {
        try (JsonParser parser = FACTORY.createParser(json)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                throw new InvalidInputException(where, "is empty, not JSON");
            }
            if (first == JsonToken.VALUE_NULL) {
                throw new InvalidInputException(where, "is JSON null; a task needs a payload (publish {} for an empty one)");
            }
            readWhole(parser, first);
            if (parser.nextToken() != null) {
                throw new InvalidInputException(where, "is not JSON: more follows the value at column "
                        + parser.currentTokenLocation().getColumnNr());
            }
        } catch (JsonProcessingException e) {
            throw new InvalidInputException(where, "is not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e); // reading a byte array does not fail
        }
    }

    /** Reads every token of the value, decoding each text, so malformed UTF-8 inside a string is found too. */
    private static void readWhole(JsonParser parser, JsonToken first) throws IOException {
        int depth = 0;
        JsonToken token = first;
        while (true) {
            if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
                depth++;
            } else if (token == JsonToken.END_OBJECT || token == JsonToken.END_ARRAY) {
                depth--;
            } else if (token == JsonToken.VALUE_STRING || token == JsonToken.FIELD_NAME) {
                parser.getText();
            } else if (token.isNumeric()) {
                parser.getNumberValue(); // numbers too long for Jackson's limits are refused, not cut
            }
            if (depth == 0) {
                return;
            }
            token = parser.nextToken();
        }
    }
}
