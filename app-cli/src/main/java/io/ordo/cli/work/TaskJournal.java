package io.ordo.cli.work;

import io.ordo.runtime.worker.TaskContext;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * {@code ordo work --journal FILE}: the demo handler appends one line when it begins a task, when
 * it is done with it (before the ack), when it fails it ({@code --failure-rate}) and when it
 * crashes the process on purpose ({@code --crash-on}), e.g.
 * {@code begin 4242 deposit-7 !account-42 2 1764460800000}: event, process id, task, partition,
 * attempt, wall-clock milliseconds. Several
 * workers may share the file: each line is one append ({@code O_APPEND}), so the file is one
 * timeline of every process, which a fault drill reads to check order and exclusivity.
 */
public final class TaskJournal implements AutoCloseable {
    private final FileOutputStream out;
    private final long pid = ProcessHandle.current().pid();

    private TaskJournal(FileOutputStream out) {
        this.out = out;
    }

    public static TaskJournal appendingTo(Path file) {
        try {
            return new TaskJournal(new FileOutputStream(file.toFile(), true));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the journal " + file + ": " + e.getMessage(), e);
        }
    }

    void begin(TaskContext task) {
        line("begin", task);
    }

    void done(TaskContext task) {
        line("done", task);
    }

    void fail(TaskContext task) {
        line("fail", task);
    }

    void crash(TaskContext task) {
        line("crash", task);
    }

    private void line(String event, TaskContext task) {
        byte[] line = (event + " " + pid + " " + task.id() + " " + task.partition() + " " + task.attempt() + " "
                + System.currentTimeMillis() + "\n")
                .getBytes(UTF_8);
        try {
            synchronized (out) {
                out.write(line); // one write(2) per line: appends of several processes never interleave within a line
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write to the journal: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException ignored) {
            // the process is ending
        }
    }
}
