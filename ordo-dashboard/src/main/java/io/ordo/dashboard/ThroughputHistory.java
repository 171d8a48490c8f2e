package io.ordo.dashboard;

import io.ordo.domain.QueueName;
import io.ordo.ports.QueueStats;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Throughput over the last minutes: the dashboard reads each queue's running totals
 * ({@link QueueStats#publishedTotal()}, {@link QueueStats#ackedTotal()},
 * {@link QueueStats#deadLetteredTotal()}) every few seconds and keeps a bounded ring of readings;
 * rates are the differences between neighbouring readings. The store keeps no history, so the
 * chart starts empty when the dashboard starts.
 */
public final class ThroughputHistory implements AutoCloseable {
    /** Queues read per round at most, so a backend with very many queues costs a bounded amount. */
    static final int MAX_QUEUES_PER_ROUND = 100;

    private final Supplier<Collection<QueueName>> queues;
    private final Function<QueueName, QueueStats> stats;
    private final LongSupplier wallClock;
    private final Duration every;
    private final int capacity;
    private final Deque<Round> rounds = new ArrayDeque<>();
    private ScheduledExecutorService timer;

    ThroughputHistory(Supplier<Collection<QueueName>> queues, Function<QueueName, QueueStats> stats,
                      LongSupplier wallClock, Duration every, Duration window) {
        this.queues = queues;
        this.stats = stats;
        this.wallClock = wallClock;
        this.every = every;
        this.capacity = (int) Math.max(2, window.toMillis() / every.toMillis() + 1);
    }

    /** Reads now, then every {@code every} on a daemon thread until closed. */
    void start() {
        timer = Executors.newSingleThreadScheduledExecutor(job -> {
            Thread thread = new Thread(job, "ordo-dashboard-sampler");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleWithFixedDelay(this::sampleQuietly, 0, every.toMillis(), TimeUnit.MILLISECONDS);
    }

    public Duration every() {
        return every;
    }

    /** One reading of every queue; a queue whose stats fail is left out of this round. */
    void sample() {
        Map<QueueName, Totals> totals = new LinkedHashMap<>();
        for (QueueName queue : queues.get()) {
            if (totals.size() == MAX_QUEUES_PER_ROUND) {
                break;
            }
            try {
                QueueStats reading = stats.apply(queue);
                totals.put(queue, new Totals(reading.publishedTotal(), reading.ackedTotal(), reading.deadLetteredTotal()));
            } catch (RuntimeException unavailable) {
                // the pages show the error; the chart has a gap for this queue
            }
        }
        Round round = new Round(wallClock.getAsLong(), totals);
        synchronized (rounds) {
            rounds.addLast(round);
            while (rounds.size() > capacity) {
                rounds.removeFirst();
            }
        }
    }

    private void sampleQuietly() {
        try {
            sample();
        } catch (RuntimeException unavailable) {
            // discovery failed (backend down): no round this time
        }
    }

    /** Rates of one queue, oldest first. */
    public List<Rate> rates(QueueName queue) {
        return rates(Optional.of(queue));
    }

    /** Rates summed over every queue, oldest first. */
    public List<Rate> totalRates() {
        return rates(Optional.empty());
    }

    private List<Rate> rates(Optional<QueueName> only) {
        List<Round> copy;
        synchronized (rounds) {
            copy = new ArrayList<>(rounds);
        }
        List<Rate> rates = new ArrayList<>();
        for (int i = 1; i < copy.size(); i++) {
            Round before = copy.get(i - 1);
            Round after = copy.get(i);
            double seconds = Math.max(1, after.at() - before.at()) / 1000.0;
            double published = 0;
            double acked = 0;
            double deadLettered = 0;
            boolean any = false;
            for (Map.Entry<QueueName, Totals> entry : after.totals().entrySet()) {
                if (only.isPresent() && !only.get().equals(entry.getKey())) {
                    continue;
                }
                Totals then = before.totals().get(entry.getKey());
                if (then == null) {
                    continue;
                }
                Totals now = entry.getValue();
                any = true;
                // a total that went down (queue deleted and begun again) counts as no progress, not negative
                published += Math.max(0, now.published() - then.published()) / seconds;
                acked += Math.max(0, now.acked() - then.acked()) / seconds;
                deadLettered += Math.max(0, now.deadLettered() - then.deadLettered()) / seconds;
            }
            if (any || only.isEmpty()) {
                rates.add(new Rate(after.at(), published, acked, deadLettered));
            }
        }
        return rates;
    }

    @Override
    public void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }

    /** Per-second rates over the interval that ends at {@code at} (epoch ms). */
    public record Rate(long at, double published, double acked, double deadLettered) {
    }

    private record Totals(long published, long acked, long deadLettered) {
    }

    private record Round(long at, Map<QueueName, Totals> totals) {
    }
}
