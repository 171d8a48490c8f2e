package io.ordo.cli.work;

import io.ordo.runtime.worker.Settlement;
import io.ordo.runtime.worker.Worker;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A status line redrawn once a second on a terminal: tasks done, the rate over the last second,
 * what the worker holds and whether the backend answers. Only on a terminal: piped output gets the
 * summary at the end instead.
 */
public final class ProgressLine implements AutoCloseable {
    private static final String CLEAR_LINE = "\r\033[K";

    private final PrintWriter err;
    private final WorkTally tally;
    private final Worker<?> worker;
    private final ScheduledExecutorService timer;
    private final long startNanos = System.nanoTime();
    private long lastProcessed;
    private long lastNanos = startNanos;

    private ProgressLine(PrintWriter err, WorkTally tally, Worker<?> worker) {
        this.err = err;
        this.tally = tally;
        this.worker = worker;
        this.timer = Executors.newSingleThreadScheduledExecutor(job -> {
            Thread thread = new Thread(job, "ordo-progress");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Starts redrawing when stderr is a terminal; otherwise does nothing. */
    public static ProgressLine startIfTerminal(PrintWriter err, WorkTally tally, Worker<?> worker) {
        ProgressLine line = new ProgressLine(err, tally, worker);
        if (System.console() != null) {
            line.timer.scheduleAtFixedRate(line::redraw, 1, 1, TimeUnit.SECONDS);
        }
        return line;
    }

    /** The rate of processed tasks over the whole run, per second. */
    public double averageRate() {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        return seconds <= 0 ? 0 : tally.count(Settlement.PROCESSED) / seconds;
    }

    private synchronized void redraw() {
        long now = System.nanoTime();
        long processed = tally.count(Settlement.PROCESSED);
        double rate = (processed - lastProcessed) / ((now - lastNanos) / 1e9);
        lastProcessed = processed;
        lastNanos = now;
        err.print(CLEAR_LINE + String.format(Locale.ROOT, "%s (%.1f/s)  holding %d  backend %s",
                tally.describe(), rate, worker.heldTasks(),
                worker.health().backendReachable() ? "up" : "DOWN"));
        err.flush();
    }

    @Override
    public synchronized void close() {
        boolean drawn = !timer.isShutdown() && System.console() != null;
        timer.shutdownNow();
        if (drawn) {
            err.print(CLEAR_LINE);
            err.flush();
        }
    }
}
