package io.ordo.ports;

import io.ordo.domain.Progress;

import java.time.Instant;
import java.util.Optional;

/**
 * A task in flight as its holder and operators follow it (docs/task-control.md).
 *
 * @param leasedAt          when its holder took it
 * @param deadline          when the store takes it back though its holder lives (its own timeout, an
 *                          extension, or the queue's processing timeout); empty when nothing but the holder's
 *                          death ends the lease
 * @param cancelRequested   whether its cancellation was asked
 * @param progress          what its handler last reported, if anything
 * @param progressAt        when that report reached the store
 */
public record LeaseStatus(Instant leasedAt, Optional<Instant> deadline, boolean cancelRequested,
                          Optional<Progress> progress, Optional<Instant> progressAt) {
}
