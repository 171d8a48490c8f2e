package io.ordo.cli.work;

import io.ordo.domain.Lease;
import io.ordo.runtime.worker.Settlement;
import io.ordo.runtime.worker.WorkerListener;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/** Counts how tasks left the worker, for the progress line and the summary. */
public final class WorkTally implements WorkerListener {
    private final Map<Settlement, AtomicLong> counts = new EnumMap<>(Settlement.class);

    public WorkTally() {
        for (Settlement settlement : Settlement.values()) {
            counts.put(settlement, new AtomicLong());
        }
    }

    @Override
    public void taskSettled(Lease lease, Settlement settlement) {
        counts.get(settlement).incrementAndGet();
    }

    public long count(Settlement settlement) {
        return counts.get(settlement).get();
    }

    /** Tasks returned to the queue unprocessed, for whatever reason. */
    public long returned() {
        return count(Settlement.RELEASED) + count(Settlement.RETURNED_WITH_BATCH) + count(Settlement.LEASE_LOST)
                + count(Settlement.ABANDONED) + count(Settlement.RATE_LIMITED) + count(Settlement.TIMED_OUT)
                + count(Settlement.PASSED_ON);
    }

    /** {@code 120 processed, 3 retried, 1 dead-lettered, 4 returned}, then {@code , 2 cancelled} when any were. */
    public String describe() {
        long cancelled = count(Settlement.CANCELLED);
        return count(Settlement.PROCESSED) + " processed, " + count(Settlement.RETRIED) + " retried, "
                + count(Settlement.DEAD_LETTERED) + " dead-lettered, " + returned() + " returned"
                + (cancelled > 0 ? ", " + cancelled + " cancelled" : "");
    }
}
