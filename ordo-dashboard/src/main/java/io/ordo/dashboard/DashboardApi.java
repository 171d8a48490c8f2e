package io.ordo.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ordo.domain.Labels;
import io.ordo.domain.GroupName;
import io.ordo.domain.InvalidInputException;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.TaskId;
import io.ordo.ports.CompletedPage;
import io.ordo.ports.ConsumerGroups;
import io.ordo.ports.DeadLetterFilter;
import io.ordo.ports.DeadLetterMatches;
import io.ordo.ports.DeadLetterPage;
import io.ordo.ports.InFlightPage;
import io.ordo.ports.ListingCursor;
import io.ordo.ports.PartitionTasks;
import io.ordo.ports.QueueStats;
import io.ordo.ports.RedriveOutcome;
import io.ordo.ports.ScheduleEntry;
import io.ordo.ports.TaskInspection;
import io.ordo.ports.TaskListing;
import io.ordo.ports.TaskPage;
import io.ordo.ports.TaskSnapshot;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The dashboard's JSON API: reads and actions on the store port, the same calls the CLI makes.
 * Paths (under {@code /api}): {@code GET overview}, {@code GET queues/Q}, {@code GET
 * queues/Q/dead-letters?offset&limit}, {@code GET queues/Q/task?id}, {@code GET queues/Q/schedules},
 * the task lists ({@code GET queues/Q/partition?partition&offset&limit}, {@code queues/Q/delayed?offset&limit},
 * {@code queues/Q/in-flight?cursor&limit}, {@code queues/Q/dead-letters/search?reason&partition&from&before&cursor&limit},
 * {@code queues/Q/completed?offset&limit}),
 * {@code GET queues/Q/limits}, {@code GET queues/Q/groups}, and the actions, all {@code
 * POST} with a JSON body: {@code session}, {@code queues/Q/pause|resume}, {@code
 * queues/Q/dead-letters/redrive|purge {"ids":[…]}}, {@code queues/Q/dead-letters/redrive-all|purge-all},
 * {@code queues/Q/task/cancel {"id":…}}, {@code queues/Q/partitions/unblock {"partition":…}},
 * {@code queues/Q/groups/create|delete {"group":…}}. The queue's pages and their actions take
 * {@code ?group=G} to act on one of its consumer groups (docs/groups.md) instead of its own view; a
 * group the queue does not have is answered 404.
 */
final class DashboardApi {
    static final int DEAD_LETTER_PAGE_DEFAULT = 25;
    static final int DEAD_LETTER_PAGE_MAX = 100;
    static final int INSPECT_DEFAULT = 10;
    static final int INSPECT_MAX = 50;
    static final int MAX_IDS_PER_ACTION = DEAD_LETTER_PAGE_MAX;
    /** Queues the overview reads at most (one stats call each, every refresh), by name. */
    static final int OVERVIEW_QUEUES_MAX = ThroughputHistory.MAX_QUEUES_PER_ROUND;

    private final ObjectMapper json;
    private final TaskStoreFactory stores;
    private final QueueDirectory directory;
    private final ThroughputHistory history;
    private final String backend;
    private final boolean actionsEnabled;
    private final InspectionPacer inspections;
    private final StatsPacer statistics;
    private final ReadBudget budget;
    private final TaskJson taskJson;
    private final QueueStateJson stateJson;

    DashboardApi(ObjectMapper json, TaskStoreFactory stores, QueueDirectory directory, ThroughputHistory history,
                 String backend, boolean actionsEnabled, InspectionPacer inspections, StatsPacer statistics,
                 ReadBudget budget) {
        this.inspections = inspections;
        this.statistics = statistics;
        this.budget = budget;
        this.json = json;
        this.taskJson = new TaskJson(json);
        this.stateJson = new QueueStateJson(json);
        this.stores = stores;
        this.directory = directory;
        this.history = history;
        this.backend = backend;
        this.actionsEnabled = actionsEnabled;
    }

    /** A read: {@code segments} are the path's parts after {@code /api}. */
    Reply read(List<String> segments, Map<String, String> query) {
        if (segments.equals(List.of("overview"))) {
            return Reply.ok(overview());
        }
        if (segments.size() >= 2 && segments.get(0).equals("queues")) {
            QueueName queue = queueNamed(segments.get(1));
            QueueView view = viewOf(queue, query);
            List<String> rest = segments.subList(2, segments.size());
            try {
                if (rest.isEmpty()) {
                    return Reply.ok(queue(view, intParameter(query, "limit", INSPECT_DEFAULT, 1, INSPECT_MAX)));
                }
                if (rest.equals(List.of("dead-letters"))) {
                    return Reply.ok(deadLetters(view, intParameter(query, "offset", 0, 0, Integer.MAX_VALUE),
                            intParameter(query, "limit", DEAD_LETTER_PAGE_DEFAULT, 1, DEAD_LETTER_PAGE_MAX)));
                }
                if (rest.equals(List.of("partition"))) {
                    return Reply.ok(partition(view, Partition.of(required(query.get("partition"), "partition")),
                            intParameter(query, "offset", 0, 0, TaskListing.MAX_OFFSET), pageLimit(query)));
                }
                if (rest.equals(List.of("delayed"))) {
                    return Reply.ok(delayed(view, intParameter(query, "offset", 0, 0, TaskListing.MAX_OFFSET), pageLimit(query)));
                }
                if (rest.equals(List.of("completed"))) {
                    return Reply.ok(completed(view, intParameter(query, "offset", 0, 0, TaskListing.MAX_OFFSET), pageLimit(query)));
                }
                if (rest.equals(List.of("in-flight"))) {
                    return Reply.ok(inFlight(view, query.getOrDefault("cursor", ListingCursor.START), pageLimit(query)));
                }
                if (rest.equals(List.of("dead-letters", "search"))) {
                    return Reply.ok(searchDeadLetters(view, filter(query), query.getOrDefault("cursor", ListingCursor.START),
                            pageLimit(query)));
                }
                if (rest.equals(List.of("task"))) {
                    return task(view, TaskId.of(required(query.get("id"), "id")));
                }
                if (rest.equals(List.of("schedules"))) {
                    return Reply.ok(schedules(queue)); // the queue's, whichever view asks (docs/groups.md)
                }
                if (rest.equals(List.of("limits"))) {
                    return Reply.ok(limits(view));
                }
                if (rest.equals(List.of("groups"))) {
                    return Reply.ok(groups(queue));
                }
            } catch (InvalidInputException badInput) {
                throw unknownGroup(view, badInput);
            }
        }
        return Reply.error(404, "no such API path");
    }

    /** An action, already let through by the {@link AccessGuard}. */
    Reply act(List<String> segments, Map<String, String> query, JsonNode body) {
        if (segments.equals(List.of("session"))) {
            return Reply.ok(json.createObjectNode().put("actions", true));
        }
        if (segments.size() < 3 || !segments.get(0).equals("queues")) {
            return Reply.error(404, "no such API path");
        }
        QueueName queue = queueNamed(segments.get(1));
        String action = String.join("/", segments.subList(2, segments.size()));
        if (action.startsWith("groups/")) {
            return administerGroups(queue, action, body);
        }
        QueueView view = viewOf(queue, query);
        try {
            return act(view, action, body);
        } catch (InvalidInputException badInput) {
            throw unknownGroup(view, badInput);
        }
    }

    /** An action on a view: the queue's own, or one of its groups. */
    private Reply act(QueueView view, String action, JsonNode body) {
        TaskStore store = storeOf(view);
        ObjectNode answer = json.createObjectNode();
        switch (action) {
            case "pause" -> {
                store.pause();
                answer.put("paused", true);
            }
            case "resume" -> {
                store.resume();
                answer.put("paused", false);
            }
            case "dead-letters/redrive" -> {
                Map<TaskId, RedriveOutcome> outcomes = store.redrive(ids(body));
                ObjectNode each = answer.putObject("outcomes");
                outcomes.forEach((id, outcome) -> each.put(id.value(), Labels.of(outcome)));
                answer.put("count", outcomes.values().stream().filter(RedriveOutcome.REDRIVEN::equals).count());
            }
            case "dead-letters/redrive-all" -> answer.put("count", store.redriveAll());
            case "dead-letters/purge" -> answer.put("count", store.purgeDeadLetters(ids(body)));
            case "dead-letters/purge-all" -> answer.put("count", store.purgeAllDeadLetters());
            case "task/cancel" -> {
                TaskId id = TaskId.of(required(text(body, "id"), "id"));
                answer.put("outcome", Labels.of(store.cancel(List.of(id)).get(id)));
            }
            case "partitions/unblock" -> {
                Partition partition = Partition.of(required(text(body, "partition"), "partition"));
                store.unblockPartition(partition);
                answer.put("unblocked", partition.code());
            }
            default -> {
                return Reply.error(404, "no such action: " + action);
            }
        }
        inspections.forget(view);
        statistics.forget(view);
        return Reply.ok(answer);
    }

    /**
     * Creates or deletes one of the queue's consumer groups: {@code groups/create} and {@code groups/delete}
     * with {@code {"group":…}}, a name {@link GroupName} accepts (a 400 naming {@code group} otherwise).
     */
    private Reply administerGroups(QueueName queue, String action, JsonNode body) {
        GroupName group = GroupName.of(required(text(body, "group"), "group"));
        TaskStore store = stores.forQueue(queue);
        ObjectNode answer = json.createObjectNode().put("group", group.value());
        switch (action) {
            case "groups/create" -> answer.put("created", store.createGroup(group));
            case "groups/delete" -> answer.put("deleted", store.deleteGroup(group));
            default -> {
                return Reply.error(404, "no such action: " + action);
            }
        }
        QueueView view = QueueView.of(queue, group);
        inspections.forget(view);
        statistics.forget(view);
        return Reply.ok(answer);
    }

    private ObjectNode overview() {
        ObjectNode root = common();
        QueueDirectory.Listing listing = directory.list();
        listing.problem().ifPresent(problem -> root.put("discoveryProblem", problem));
        root.put("totalQueues", listing.queues().size());
        ArrayNode queues = root.putArray("queues");
        for (QueueName queue : listing.queues().subList(0, Math.min(OVERVIEW_QUEUES_MAX, listing.queues().size()))) {
            ObjectNode row = queues.addObject().put("name", queue.value());
            try {
                statistics.stats(QueueView.of(queue), () -> stores.forQueue(queue).stats()).ifPresentOrElse(
                        stats -> row.set("stats", json.valueToTree(stats)), () -> row.put("error", overBudget()));
            } catch (RuntimeException unavailable) {
                row.put("error", describe(unavailable));
            }
            List<ThroughputHistory.Rate> rates = history.rates(queue);
            if (!rates.isEmpty()) {
                row.put("ackedPerSecond", rates.get(rates.size() - 1).acked());
            }
        }
        root.set("throughput", stateJson.rates(history.totalRates()));
        return root;
    }

    private ObjectNode queue(QueueView view, int limit) {
        TaskInspection store = storeOf(view);
        ObjectNode root = named(view);
        QueueStats stats = statistics.stats(view, store::stats).orElseThrow(this::overBudgetFailure);
        requireExisting(view, stats);
        root.set("stats", json.valueToTree(stats));
        try {
            // always the widest inspection, so asking with another limit never buys a fresh one
            inspections.inspect(view, () -> store.inspect(INSPECT_MAX)).ifPresentOrElse(
                    inspection -> root.set("inspection", stateJson.inspection(inspection, limit)),
                    () -> root.put("inspectionProblem", "not inspected yet: the dashboard inspects at most 1/"
                            + InspectionPacer.COST_FACTOR + " of the time; the page tries again on its next refresh"));
        } catch (InvalidInputException badInput) {
            throw badInput;
        } catch (RuntimeException unavailable) {
            root.put("inspectionProblem", describe(unavailable));
        }
        if (view.group().isEmpty()) {
            // the sampler reads the queues' own totals only: a group's page has no chart
            root.set("throughput", stateJson.rates(history.rates(view.queue())));
        }
        return root;
    }

    /**
     * The queue's consumer groups by name (at most {@link ConsumerGroups#MAX_GROUPS}, one bounded read) with
     * each group's statistics, paced as every view's are ({@link StatsPacer}): a row whose statistics are
     * not read says why.
     */
    private ObjectNode groups(QueueName queue) {
        spendRead();
        List<GroupName> groups = stores.forQueue(queue).groups();
        ObjectNode root = common().put("name", queue.value()).put("maxGroups", ConsumerGroups.MAX_GROUPS);
        ArrayNode rows = root.putArray("groups");
        for (GroupName group : first(groups, ConsumerGroups.MAX_GROUPS)) {
            ObjectNode row = rows.addObject().put("name", group.value());
            try {
                statistics.stats(QueueView.of(queue, group), () -> stores.forGroup(queue, group).stats()).ifPresentOrElse(
                        stats -> row.set("stats", json.valueToTree(stats)), () -> row.put("error", overBudget()));
            } catch (RuntimeException unavailable) {
                row.put("error", describe(unavailable));
            }
        }
        return root;
    }

    private ObjectNode deadLetters(QueueView view, int offset, int limit) {
        spendRead();
        DeadLetterPage page = storeOf(view).deadLetters(offset, limit);
        if (page.total() == 0) {
            requireExistingQueue(view);
        }
        ObjectNode root = named(view).put("total", page.total()).put("offset", offset).put("limit", limit);
        ArrayNode items = root.putArray("items");
        page.items().forEach(letter -> items.add(taskJson.deadLetterRow(letter)));
        return root;
    }

    // ---------------------------------------------------------------- task lists (TaskListing: one bounded read each)

    /** A partition's page: its head, lock, block and counts, and a page of its tasks in the order it delivers them. */
    private ObjectNode partition(QueueView view, Partition partition, int offset, int limit) {
        spendRead();
        PartitionTasks listed = storeOf(view).partitionTasks(partition, offset, limit);
        if (listed.waiting() == 0 && listed.lock().isEmpty() && listed.block().isEmpty()) {
            requireExistingQueue(view);
        }
        ObjectNode root = named(view).put("partition", partition.code()).put("ordered", partition.isOrdered())
                .put("readAt", listed.readAt().toEpochMilli()).put("waiting", listed.waiting())
                .put("total", listed.total()).put("offset", offset).put("limit", limit)
                .put("maxOffset", TaskListing.MAX_OFFSET);
        if (listed.inFlight().isPresent()) {
            root.put("inFlight", listed.inFlight().getAsLong());
        }
        listed.lock().ifPresent(lock -> root.putObject("lock").put("holder", lock.holder().value())
                .put("since", lock.since().toEpochMilli()).put("inFlight", lock.inFlight()));
        listed.block().ifPresent(block -> root.putObject("block").put("until", block.until().toEpochMilli()));
        listed.head().ifPresent(head -> root.set("head", taskJson.row(head)));
        return taskJson.withRows(root, listed.tasks());
    }

    private ObjectNode delayed(QueueView view, int offset, int limit) {
        spendRead();
        TaskPage page = storeOf(view).delayedTasks(offset, limit);
        if (page.total() == 0) {
            requireExistingQueue(view);
        }
        return taskJson.withRows(named(view).put("readAt", page.readAt().toEpochMilli()).put("total", page.total())
                .put("offset", offset).put("limit", limit).put("maxOffset", TaskListing.MAX_OFFSET), page.tasks());
    }

    /** The completed tasks a queue keeps with their results, the latest to go first ({@link CompletedJson}). */
    private ObjectNode completed(QueueView view, int offset, int limit) {
        spendRead();
        CompletedPage page = storeOf(view).completedTasks(offset, limit);
        if (page.total() == 0) {
            requireExistingQueue(view);
        }
        return CompletedJson.page(named(view), page, limit, taskJson::row);
    }

    private ObjectNode inFlight(QueueView view, String cursor, int limit) {
        spendRead();
        InFlightPage page = storeOf(view).inFlightTasks(cursor, limit);
        if (page.tasks().isEmpty() && cursor.isEmpty()) {
            requireExistingQueue(view);
        }
        ObjectNode root = named(view).put("readAt", page.readAt().toEpochMilli()).put("limit", limit);
        page.next().ifPresent(next -> root.put("next", next));
        ArrayNode tasks = root.putArray("tasks");
        page.tasks().forEach(snapshot -> tasks.add(taskJson.inFlightRow(snapshot)));
        return root;
    }

    private ObjectNode searchDeadLetters(QueueView view, DeadLetterFilter filter, String cursor, int limit) {
        spendRead();
        DeadLetterMatches found = storeOf(view).findDeadLetters(filter, cursor, limit);
        if (found.examined() == 0 && cursor.isEmpty()) {
            requireExistingQueue(view);
        }
        ObjectNode root = named(view).put("readAt", found.readAt().toEpochMilli()).put("examined", found.examined())
                .put("maxExamined", TaskListing.MAX_EXAMINED).put("limit", limit);
        found.next().ifPresent(next -> root.put("next", next));
        ArrayNode items = root.putArray("items");
        found.matches().forEach(letter -> items.add(taskJson.deadLetterRow(letter)));
        return root;
    }

    /** The filter a search's query gives: {@code reason}, {@code partition}, {@code from} and {@code before} (epoch ms), each optional. */
    private static DeadLetterFilter filter(Map<String, String> query) {
        String reason = query.get("reason");
        String partition = query.get("partition");
        return new DeadLetterFilter(reason == null || reason.isEmpty() ? null : reason,
                partition == null || partition.isEmpty() ? null : Partition.of(partition),
                instantParameter(query, "from"), instantParameter(query, "before"));
    }

    private static int pageLimit(Map<String, String> query) {
        return intParameter(query, "limit", DEAD_LETTER_PAGE_DEFAULT, 1, TaskListing.MAX_PAGE);
    }

    private static Instant instantParameter(Map<String, String> query, String name) {
        String value = query.get(name);
        if (value == null || value.isEmpty()) {
            return null;
        }
        try {
            return Instant.ofEpochMilli(Long.parseLong(value.trim()));
        } catch (NumberFormatException e) {
            throw new InvalidInputException(name, "must be a time in epoch milliseconds, was '" + value + "'");
        }
    }

    /** The queue's schedules by id (docs/semantics.md, "Schedules"): one read of at most 1,000 small records. */
    private ObjectNode schedules(QueueName queue) {
        spendRead();
        List<ScheduleEntry> entries = stores.forQueue(queue).schedules();
        return stateJson.schedules(common().put("name", queue.value()), entries);
    }

    /**
     * The view's concurrency caps and rate limits (docs/semantics.md, "Caps and rate limits") and the caps on its
     * dead letters ("Dead letters kept within bounds"): one read of its settings (a group has settings of its own,
     * docs/groups.md). A cap or age of 0 is none; a rate limit that is off is left out.
     */
    private ObjectNode limits(QueueView view) {
        spendRead();
        QueueSettings settings = storeOf(view).settings();
        return stateJson.limits(named(view), settings);
    }

    private Reply task(QueueView view, TaskId id) {
        spendRead();
        Optional<TaskSnapshot> found = storeOf(view).get(id);
        if (found.isEmpty()) {
            requireExistingQueue(view);
            return Reply.error(404, "no task " + id + " in " + view);
        }
        return Reply.ok(taskJson.page(named(view), found.get()));
    }

    /** The common fields and the view's names: {@code name}, the queue's, and {@code group} for a group's view. */
    private ObjectNode named(QueueView view) {
        ObjectNode root = common().put("name", view.queue().value());
        view.group().ifPresent(group -> root.put("group", group.value()));
        return root;
    }

    private ObjectNode common() {
        return json.createObjectNode().put("backend", backend).put("actions", actionsEnabled)
                .put("sampleEveryMillis", history.every().toMillis());
    }

    private List<TaskId> ids(JsonNode body) {
        JsonNode ids = body.get("ids");
        if (ids == null || !ids.isArray() || ids.isEmpty()) {
            throw new InvalidInputException("ids", "must be a non-empty array of task ids");
        }
        if (ids.size() > MAX_IDS_PER_ACTION) {
            throw new InvalidInputException("ids", "at most " + MAX_IDS_PER_ACTION + " per request, was " + ids.size());
        }
        List<TaskId> taskIds = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            if (!ids.get(i).isTextual()) {
                throw new InvalidInputException("ids[" + i + "]", "must be a string");
            }
            taskIds.add(TaskId.of(ids.get(i).asText()));
        }
        return taskIds;
    }

    private static String text(JsonNode body, String field) {
        JsonNode value = body.get(field);
        return value == null || !value.isTextual() ? null : value.asText();
    }

    private static String required(String value, String field) {
        if (value == null) {
            throw new InvalidInputException(field, "is required");
        }
        return value;
    }

    private static int intParameter(Map<String, String> query, String name, int fallback, int min, int max) {
        String value = query.get(name);
        if (value == null || value.isEmpty()) {
            return fallback;
        }
        try {
            int number = Integer.parseInt(value.trim());
            if (number < min || number > max) {
                throw new InvalidInputException(name, "must be between " + min + " and " + max + ", was " + number);
            }
            return number;
        } catch (NumberFormatException e) {
            throw new InvalidInputException(name, "must be a whole number, was '" + value + "'");
        }
    }

    /**
     * The queue a path segment names: a name that would be a dot segment ({@code .}, {@code ..}), which
     * browsers resolve away, is written with a leading {@code ~}, a character no queue name has.
     */
    static QueueName queueNamed(String segment) {
        return QueueName.of(segment.startsWith("~") ? segment.substring(1) : segment);
    }

    /** The path segment for {@code queue}, as {@link #queueNamed} reads it. */
    static String segmentOf(QueueName queue) {
        return queue.value().equals(".") || queue.value().equals("..") ? "~" + queue.value() : queue.value();
    }

    /**
     * Refuses a queue that never held anything (a typo in the address, most likely) instead of showing
     * it empty: its statistics show no task, total, pause or consumer, and the backend does not list it
     * (the listing every page shares, so this costs no extra scan). Queues named with --queue exist. A
     * group's view needs no check: reading a group that does not exist fails ({@link #unknownGroup}).
     */
    private void requireExisting(QueueView view, QueueStats stats) {
        if (view.group().isEmpty() && !stats.showsUse() && !directory.list().queues().contains(view.queue())) {
            throw new NotFound("queue " + view.queue() + " does not exist on " + backend
                    + " (nothing was ever published to it); check the name");
        }
    }

    /** {@link #requireExisting} after a list came back empty: its statistics, paced as every page's. */
    private void requireExistingQueue(QueueView view) {
        if (view.group().isEmpty()) {
            requireExisting(view, statistics.stats(view, storeOf(view)::stats).orElseThrow(this::overBudgetFailure));
        }
    }

    /** The view named by the query's {@code group} (the queue's own without one); a bad name is a 400 naming {@code group}. */
    private static QueueView viewOf(QueueName queue, Map<String, String> query) {
        String group = query.get("group");
        return group == null || group.isEmpty() ? QueueView.of(queue) : QueueView.of(queue, GroupName.of(group));
    }

    private TaskStore storeOf(QueueView view) {
        return view.group().map(group -> stores.forGroup(view.queue(), group)).orElseGet(() -> stores.forQueue(view.queue()));
    }

    /**
     * A call on a group's store that names {@code group} failed because the queue has no such group (docs/groups.md):
     * said so with a 404 instead of a 400 or an empty page; any other bad input is passed on.
     */
    private RuntimeException unknownGroup(QueueView view, InvalidInputException badInput) {
        if (view.group().isPresent() && badInput.field().equals("group")) {
            return new NotFound("queue " + view.queue() + " has no consumer group " + view.group().get()
                    + " (never created, or deleted); check the name");
        }
        return badInput;
    }

    /** A queue that never held anything, or a group its queue does not have: answered 404. */
    static final class NotFound extends RuntimeException {
        NotFound(String message) {
            super(message, null, false, false);
        }
    }

    /** The first {@code limit} of the items, or all of them. */
    static <T> List<T> first(List<T> items, int limit) {
        return items.subList(0, Math.min(limit, items.size()));
    }

    private void spendRead() {
        if (!budget.take()) {
            throw overBudgetFailure();
        }
    }

    private String overBudget() {
        return "not read: the dashboard reads the backend at most " + budget.perSecond()
                + " times a second; the page tries again on its next refresh";
    }

    private OverBudget overBudgetFailure() {
        return new OverBudget(overBudget());
    }

    /** A read refused because the {@link ReadBudget} is spent: answered 503. */
    static final class OverBudget extends RuntimeException {
        OverBudget(String message) {
            super(message, null, false, false);
        }
    }

    static String describe(RuntimeException problem) {
        return problem.getMessage() == null ? problem.getClass().getSimpleName() : problem.getMessage();
    }

    /** An answer: a status and a JSON body. */
    record Reply(int status, JsonNode body) {
        static Reply ok(JsonNode body) {
            return new Reply(200, body);
        }

        static Reply error(int status, String message) {
            return new Reply(status, JsonNodeFactory.instance.objectNode().put("error", message));
        }
    }
}
