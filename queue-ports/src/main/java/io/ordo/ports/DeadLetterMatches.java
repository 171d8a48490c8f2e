package io.ordo.ports;

import io.ordo.domain.DeadLetter;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What one call of {@link TaskListing#findDeadLetters} found.
 *
 * @param matches  the dead letters the filter matches among those examined, oldest first
 * @param examined how many dead letters the call examined (at most {@value TaskListing#MAX_EXAMINED})
 * @param next     the cursor to go on from, after the last one examined; empty when none is left
 * @param readAt   the backend's time of the reading
 */
public record DeadLetterMatches(List<DeadLetter> matches, int examined, Optional<String> next, Instant readAt) {
    public DeadLetterMatches {
        matches = List.copyOf(matches);
    }
}
