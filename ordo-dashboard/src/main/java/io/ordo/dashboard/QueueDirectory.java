package io.ordo.dashboard;

import io.ordo.domain.QueueName;
import io.ordo.ports.TaskStoreFactory;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The queues the dashboard shows: those the backend knows ({@link TaskStoreFactory#knownQueues()})
 * and those named at start-up, which show even while they hold nothing. Listing may scan the
 * backend (SCAN on Redis), so one listing serves every page and the sampler for {@code reuseFor}.
 */
final class QueueDirectory {
    private final TaskStoreFactory stores;
    private final List<QueueName> named;
    private final long reuseForNanos;
    private Listing last;
    private long listedAt;

    QueueDirectory(TaskStoreFactory stores, List<QueueName> named, Duration reuseFor) {
        this.stores = stores;
        this.named = List.copyOf(named);
        this.reuseForNanos = reuseFor.toNanos();
    }

    /** Every queue by name; when the backend cannot list its queues, the named ones and why. */
    synchronized Listing list() {
        long now = System.nanoTime();
        if (last != null && now - listedAt < reuseForNanos) {
            return last;
        }
        TreeSet<QueueName> queues = new TreeSet<>(Comparator.comparing(QueueName::value));
        queues.addAll(named);
        Optional<String> problem = Optional.empty();
        try {
            queues.addAll(stores.knownQueues());
        } catch (RuntimeException unavailable) {
            problem = Optional.of("cannot list the backend's queues: " + DashboardApi.describe(unavailable));
        }
        last = new Listing(List.copyOf(queues), problem);
        listedAt = now;
        return last;
    }

    List<QueueName> queuesQuietly() {
        return list().queues();
    }

    record Listing(List<QueueName> queues, Optional<String> problem) {
    }
}
