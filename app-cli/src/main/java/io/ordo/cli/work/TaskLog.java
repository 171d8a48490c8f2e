package io.ordo.cli.work;

import io.ordo.domain.Labels;
import io.ordo.cli.TerminalText;
import io.ordo.domain.Lease;
import io.ordo.runtime.worker.Settlement;
import io.ordo.runtime.worker.WorkerListener;

import java.io.PrintWriter;

/**
 * {@code ordo work --log-tasks}: one line per task event on stdout, e.g.
 * {@code processed  deposit-7  !account-42  attempt 1}, in the order the worker saw them.
 */
public final class TaskLog implements WorkerListener {
    private final PrintWriter out;

    public TaskLog(PrintWriter out) {
        this.out = out;
    }

    @Override
    public void taskStarted(Lease lease) {
        line("started", lease);
    }

    @Override
    public void taskSettled(Lease lease, Settlement settlement) {
        line(Labels.of(settlement), lease);
    }

    private void line(String event, Lease lease) {
        synchronized (out) {
            out.printf("%-19s  %s  %s  attempt %d%n", event, TerminalText.escape(lease.id()),
                    TerminalText.escape(lease.partition()), lease.task().attempts());
            out.flush();
        }
    }
}
