package io.ordo.dashboard;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ordo.domain.Task;
import io.ordo.ports.CompletedPage;
import io.ordo.ports.CompletedTask;
import io.ordo.ports.Completion;
import io.ordo.ports.TaskListing;

import java.util.function.Function;

/**
 * The completed tasks as the dashboard's API gives them (docs/task-control.md, "Results"): the page of {@code GET
 * queues/Q/completed?offset&limit} and a completed task's part of {@code GET queues/Q/task?id}. Its rows carry the
 * result's size only; the task's page shows the result itself.
 */
final class CompletedJson {
    private CompletedJson() {
    }

    /**
     * The page into {@code root}: whether the queue keeps results and for how long, the counts and offsets as the
     * delayed list's, and {@code tasks}: each task as every list shows it ({@code taskRow}) with {@code completedAt},
     * {@code keptUntil} (epoch ms) and {@code resultBytes}.
     */
    static ObjectNode page(ObjectNode root, CompletedPage page, int limit, Function<Task, ObjectNode> taskRow) {
        root.put("readAt", page.readAt().toEpochMilli()).put("resultsKept", page.resultsKept())
                .put("resultRetentionMillis", page.resultRetention().toMillis()).put("total", page.total())
                .put("offset", page.offset()).put("limit", limit).put("maxOffset", TaskListing.MAX_OFFSET);
        ArrayNode tasks = root.putArray("tasks");
        for (CompletedTask done : page.tasks()) {
            tasks.add(taskRow.apply(done.task()).put("completedAt", done.completedAt().toEpochMilli())
                    .put("keptUntil", done.keptUntil().toEpochMilli()).put("resultBytes", done.resultBytes()));
        }
        return root;
    }

    /** A completed task's {@code completion} on its page: its times and its result as {@code result} shows bytes. */
    static void completion(ObjectNode root, Completion completion, Function<byte[], ObjectNode> result) {
        root.putObject("completion").put("completedAt", completion.completedAt().toEpochMilli())
                .put("keptUntil", completion.keptUntil().toEpochMilli())
                .set("result", result.apply(completion.result()));
    }
}
