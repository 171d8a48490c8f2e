package io.ordo.runtime.worker;

import io.ordo.domain.Lease;
import io.ordo.domain.TaskId;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** Remembers what a worker reported, in order, for assertions. */
final class RecordingListener implements WorkerListener {
    final List<String> started = new CopyOnWriteArrayList<>();
    final List<String> startedThreads = new CopyOnWriteArrayList<>();
    final Map<TaskId, List<Settlement>> settlements = new ConcurrentHashMap<>();
    final List<String> events = new CopyOnWriteArrayList<>();
    final List<Duration> fetchRetries = new CopyOnWriteArrayList<>();
    final Map<TaskId, CancelledRun> cancelled = new ConcurrentHashMap<>();
    final AtomicInteger backendDown = new AtomicInteger();
    final AtomicInteger backendUp = new AtomicInteger();

    @Override
    public void taskStarted(Lease lease) {
        started.add(lease.id().value());
        startedThreads.add(Thread.currentThread().getName());
        events.add("started " + lease.id());
    }

    @Override
    public void taskCancelled(Lease lease, CancelledRun run) {
        cancelled.put(lease.id(), run);
        events.add("cancelled " + lease.id() + " " + run);
    }

    @Override
    public void taskSettled(Lease lease, Settlement settlement) {
        settlements.computeIfAbsent(lease.id(), id -> new CopyOnWriteArrayList<>()).add(settlement);
        events.add(settlement.name().toLowerCase(java.util.Locale.ROOT) + " " + lease.id());
    }

    @Override
    public void fetchFailed(RuntimeException error, Duration retryIn) {
        fetchRetries.add(retryIn);
    }

    @Override
    public void backendDown(RuntimeException error) {
        backendDown.incrementAndGet();
    }

    @Override
    public void backendUp(Duration outage) {
        backendUp.incrementAndGet();
    }

    CancelledRun cancelledRunOf(String id) {
        return cancelled.get(TaskId.of(id));
    }

    List<Settlement> settlementsOf(String id) {
        return settlements.getOrDefault(TaskId.of(id), List.of());
    }

    long count(Settlement settlement) {
        return settlements.values().stream().flatMap(List::stream).filter(settlement::equals).count();
    }

    List<String> settledAs(Settlement settlement) {
        List<String> ids = new ArrayList<>();
        settlements.forEach((id, list) -> {
            if (list.contains(settlement)) {
                ids.add(id.value());
            }
        });
        return ids;
    }
}
