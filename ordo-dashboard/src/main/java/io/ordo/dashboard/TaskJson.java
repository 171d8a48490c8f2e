package io.ordo.dashboard;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ordo.domain.DeadLetter;
import io.ordo.domain.Labels;
import io.ordo.domain.Task;
import io.ordo.ports.TaskSnapshot;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

/**
 * Tasks as the dashboard's API gives them: a row as every list shows it (its error and payload cut short), a
 * dead letter's and a task in flight's rows, and a task's own page with them at length. It writes JSON only;
 * {@link DashboardApi} reads the store and pays for the reads.
 */
final class TaskJson {
    static final int PREVIEW_CHARS_IN_LIST = 200;
    static final int PREVIEW_CHARS_OF_TASK = 4000;
    static final int REASON_CHARS_IN_LIST = 300;

    private final ObjectMapper json;

    TaskJson(ObjectMapper json) {
        this.json = json;
    }

    /** The list's rows as {@code tasks}. */
    ObjectNode withRows(ObjectNode root, List<Task> tasks) {
        ArrayNode rows = root.putArray("tasks");
        tasks.forEach(task -> rows.add(row(task)));
        return root;
    }

    /** A task as every list shows it: its fields, its last error and payload cut for a compact row. */
    ObjectNode row(Task task) {
        ObjectNode row = json.createObjectNode().put("id", task.id().value()).put("partition", task.partition().code())
                .put("ordered", task.partition().isOrdered()).put("priority", task.priority().value())
                .put("attempts", task.attempts()).put("publishedAt", task.publishedAt()).put("dueAt", task.dueAt())
                .put("readyAt", task.readyAt()).put("type", task.type());
        if (task.lastError() != null) {
            row.set("lastError", preview(task.lastError(), REASON_CHARS_IN_LIST));
        }
        row.set("payload", payload(task.payload(), PREVIEW_CHARS_IN_LIST));
        return row;
    }

    ObjectNode deadLetterRow(DeadLetter letter) {
        ObjectNode row = row(letter.task()).put("deadAt", letter.deadAt());
        row.set("reason", preview(letter.reason() == null ? "" : letter.reason(), REASON_CHARS_IN_LIST));
        return row;
    }

    /** A task in flight as its list shows it: its row, its holder, and its lease's times, cancel request and progress. */
    ObjectNode inFlightRow(TaskSnapshot snapshot) {
        ObjectNode row = row(snapshot.task()).put("holder", snapshot.holder().map(Object::toString).orElse(null));
        snapshot.lease().ifPresent(lease -> {
            row.put("leasedAt", lease.leasedAt().toEpochMilli()).put("cancelRequested", lease.cancelRequested());
            lease.deadline().ifPresent(deadline -> row.put("deadline", deadline.toEpochMilli()));
            lease.progress().ifPresent(progress -> row.putObject("progress").put("percent", progress.percent())
                    .put("message", progress.message())
                    .put("at", lease.progressAt().map(Instant::toEpochMilli).orElse(null)));
        });
        return row;
    }

    /** A task's own page into {@code root}: every field, its headers, and its error, payload and result at length. */
    ObjectNode page(ObjectNode root, TaskSnapshot snapshot) {
        Task task = snapshot.task();
        root.put("id", task.id().value())
                .put("state", Labels.of(snapshot.state())).put("holder", snapshot.holder().map(Object::toString).orElse(null))
                .put("partition", task.partition().code()).put("ordered", task.partition().isOrdered())
                .put("priority", task.priority().value()).put("attempts", task.attempts())
                .put("publishedAt", task.publishedAt()).put("dueAt", task.dueAt()).put("readyAt", task.readyAt())
                .put("type", task.type());
        if (task.maxAttempts() != 0) {
            root.put("maxAttempts", task.maxAttempts());
        }
        if (task.lastError() != null) {
            root.set("lastError", preview(task.lastError(), PREVIEW_CHARS_OF_TASK));
        }
        ObjectNode headers = root.putObject("headers");
        task.headers().forEach(headers::put);
        root.set("payload", payload(task.payload(), PREVIEW_CHARS_OF_TASK));
        snapshot.completion().ifPresent(done -> CompletedJson.completion(root, done,
                result -> payload(result, PREVIEW_CHARS_OF_TASK)));
        return root;
    }

    /** The payload as UTF-8 text (undecodable bytes replaced), cut to {@code chars} characters; the page shows it as text. */
    private ObjectNode payload(byte[] payload, int chars) {
        return preview(new String(payload, StandardCharsets.UTF_8), chars).put("bytes", payload.length);
    }

    private ObjectNode preview(String text, int chars) {
        boolean truncated = text.codePointCount(0, text.length()) > chars;
        String cut = truncated ? text.substring(0, text.offsetByCodePoints(0, chars)) : text;
        return json.createObjectNode().put("text", cut).put("truncated", truncated);
    }
}
