package io.ordo.cli.dashboard;

import io.ordo.domain.QueueName;
import io.ordo.ports.TaskStoreFactory;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The queues the dashboard shows: those the backend knows ({@link TaskStoreFactory#knownQueues()})
 * and those named at start-up, which show even while they hold nothing.
 */
final class QueueDirectory {
    private final TaskStoreFactory stores;
    private final List<QueueName> named;

    QueueDirectory(TaskStoreFactory stores, List<QueueName> named) {
        this.stores = stores;
        this.named = List.copyOf(named);
    }

    /** Every queue by name; when the backend cannot list its queues, the named ones and why. */
    Listing list() {
        TreeSet<QueueName> queues = new TreeSet<>(Comparator.comparing(QueueName::value));
        queues.addAll(named);
        Optional<String> problem = Optional.empty();
        try {
            queues.addAll(stores.knownQueues());
        } catch (RuntimeException unavailable) {
            problem = Optional.of("cannot list the backend's queues: " + DashboardApi.describe(unavailable));
        }
        return new Listing(List.copyOf(queues), problem);
    }

    List<QueueName> queuesQuietly() {
        return list().queues();
    }

    record Listing(List<QueueName> queues, Optional<String> problem) {
    }
}
