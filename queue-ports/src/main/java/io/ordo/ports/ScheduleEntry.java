package io.ordo.ports;

import io.ordo.domain.Schedule;

import java.time.Instant;
import java.util.Optional;

/**
 * A schedule as the queue keeps it.
 *
 * @param anchorMillis   where its slots start: its {@code start}, or when it was first put (an interval's
 *                       slots are this plus whole intervals)
 * @param lastSlotMillis the latest slot handled (published or skipped); {@code anchorMillis - 1} before any
 */
public record ScheduleEntry(Schedule schedule, long anchorMillis, long lastSlotMillis) {
    /** The latest slot handled, if any. */
    public Optional<Instant> lastSlot() {
        return lastSlotMillis < anchorMillis ? Optional.empty() : Optional.of(Instant.ofEpochMilli(lastSlotMillis));
    }
}
