package io.ordo.ports;

import io.ordo.domain.InvalidInputException;
import io.ordo.domain.Validate;

import java.util.List;

/**
 * Which page of a cursor-paged listing is asked for ({@link TaskListing#inFlightTasks},
 * {@link TaskListing#findDeadLetters}), checked here once for every store: where the last page ended (the
 * parts of its cursor; empty for the first page) and {@code limit} items (1..{@value TaskListing#MAX_PAGE}).
 */
public record CursorPageRequest(List<String> position, int limit) {
    public CursorPageRequest {
        position = List.copyOf(position);
        Validate.range("limit", limit, 1, TaskListing.MAX_PAGE);
    }

    /** The request for {@code cursor}, which a listing whose cursors have {@code parts} parts gave (or {@link ListingCursor#START}). */
    public static CursorPageRequest of(String cursor, int parts, int limit) {
        Validate.range("limit", limit, 1, TaskListing.MAX_PAGE);
        return new CursorPageRequest(ListingCursor.parts(cursor, parts), limit);
    }

    public boolean fromStart() {
        return position.isEmpty();
    }

    /** Part {@code i} of the cursor. */
    public String part(int i) {
        return position.get(i);
    }

    /** Part {@code i} of the cursor, digits the store wrote there (an unsigned number of any size). */
    public String digits(int i) {
        String part = position.get(i);
        if (!part.matches("[0-9]{1,20}")) {
            throw new InvalidInputException("cursor", "is not a cursor this listing gave; start again with an empty one");
        }
        return part;
    }

    /** Part {@code i} of the cursor, a whole number the store wrote there. */
    public long number(int i) {
        try {
            return Long.parseLong(position.get(i));
        } catch (NumberFormatException e) {
            throw new InvalidInputException("cursor", "is not a cursor this listing gave; start again with an empty one");
        }
    }
}
