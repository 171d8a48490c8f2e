package io.ordo.cli;

import io.ordo.domain.Labels;
import io.ordo.domain.RetryPolicy;
import io.ordo.domain.Task;
import io.ordo.domain.TaskId;
import io.ordo.ports.TaskInspection;
import io.ordo.ports.TaskSnapshot;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.Optional;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Shows one task and where it is: pending, delayed, in flight (and with whom) or dead.
 *
 * <pre>
 * ordo get --backend lettuce --queue orders deposit-1
 * </pre>
 */
@Command(name = "get", mixinStandardHelpOptions = true,
        description = {"Shows one task and its state: pending, delayed, in-flight (with its holder) or dead.",
                "A task that does not exist (never published, acked or cancelled) exits with 3."},
        footer = {"", "Example:", "  ordo get --backend lettuce --queue orders deposit-1"})
final class GetCommand extends QueueCommand {
    @Parameters(paramLabel = "ID", description = "The task's id.")
    String id;

    @Override
    public Integer call() {
        TaskId taskId = TaskId.of(id);
        Optional<TaskSnapshot> found;
        try {
            found = onExistingStore((TaskInspection store) -> store.get(taskId), Optional::isEmpty);
        } catch (QueueNotFound absent) {
            return queueNotFound();
        }
        if (found.isEmpty()) {
            backend.noteWhenNothingPersists();
            spec.commandLine().getErr().printf("ordo: no task %s in queue %s%n", TerminalText.escape(id), queueName());
            spec.commandLine().getErr().flush();
            return ExitCodes.NOT_FOUND;
        }
        print(found.get());
        return done();
    }

    private void print(TaskSnapshot snapshot) {
        Task task = snapshot.task();
        PrintWriter out = out();
        row(out, "id", task.id().value());
        row(out, "state", Labels.of(snapshot.state()) + snapshot.holder().map(holder -> " (held by " + holder + ")").orElse(""));
        snapshot.completion().ifPresent(completion -> {
            row(out, "completed", completion.completedAt().toString());
            row(out, "kept until", completion.keptUntil().toString());
            row(out, "result", new String(completion.result(), UTF_8));
        });
        snapshot.lease().ifPresent(lease -> {
            row(out, "leased", lease.leasedAt().toString());
            row(out, "deadline", lease.deadline().map(Instant::toString).orElse("none (taken back only if its worker dies)"));
            if (lease.cancelRequested()) {
                row(out, "cancel", "requested: its worker stops it, and it ends as cancelled");
            }
            lease.progress().ifPresent(progress -> row(out, "progress", progress.percent() + "%"
                    + (progress.message().isEmpty() ? "" : " " + progress.message())
                    + lease.progressAt().map(at -> " (reported " + at + ")").orElse("")));
        });
        row(out, "partition", task.partition().code() + (task.partition().isOrdered() ? "  (ordered)" : ""));
        task.typeIfAny().ifPresent(type -> row(out, "type", type));
        row(out, "priority", Integer.toString(task.priority().value()));
        row(out, "attempts", Integer.toString(task.attempts()));
        if (task.maxAttempts() != 0) {
            row(out, "max attempts", task.maxAttempts() + " (the task's own, in place of the queue's)");
        }
        if (!task.timeout().isZero()) {
            row(out, "timeout", CliTerms.durations(task.timeout() + " (the task's own, in place of the queue's)"));
        }
        if (task.retryPolicy() != null) {
            RetryPolicy policy = task.retryPolicy();
            row(out, "backoff", CliTerms.durations(policy.initialDelay() + " doubling by " + policy.multiplier()
                    + " up to " + policy.maxDelay() + ", jitter " + policy.jitter() + " (its own)"));
        }
        row(out, "published", Instant.ofEpochMilli(task.publishedAt()).toString());
        row(out, "due", Instant.ofEpochMilli(task.dueAt()).toString());
        row(out, "ready", Instant.ofEpochMilli(task.readyAt()).toString());
        row(out, "seq", Long.toString(task.seq()));
        task.lastErrorIfAny().ifPresent(error -> row(out, "last error", error));
        task.headers().forEach((name, value) -> row(out, "header " + name, value));
        row(out, "payload", new String(task.payload(), UTF_8));
    }

    /** Every value may come from task data (a header's name too): each is escaped for the terminal. */
    private static void row(PrintWriter out, String name, String value) {
        out.printf("%-12s %s%n", TerminalText.escape(name), TerminalText.escape(value));
    }
}
