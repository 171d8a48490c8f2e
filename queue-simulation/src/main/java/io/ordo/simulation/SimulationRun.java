package io.ordo.simulation;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.DeadLetter;
import io.ordo.domain.GroupName;
import io.ordo.domain.InvalidInputException;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Progress;
import io.ordo.domain.TaskId;
import io.ordo.domain.Labels;
import io.ordo.ports.AckOutcome;
import io.ordo.ports.CancelOutcome;
import io.ordo.ports.DeadLetterPage;
import io.ordo.ports.ExtendOutcome;
import io.ordo.ports.FailOutcome;
import io.ordo.ports.PublishReceipt;
import io.ordo.ports.QueueStats;
import io.ordo.ports.ReclaimReport;
import io.ordo.ports.RedriveOutcome;
import io.ordo.ports.RejectOutcome;
import io.ordo.ports.Rejection;
import io.ordo.ports.ReleaseOutcome;
import io.ordo.ports.ScheduleFiring;
import io.ordo.ports.ListingCursor;
import io.ordo.ports.TaskEvent;
import io.ordo.ports.TaskEventPage;
import io.ordo.ports.TaskEvents;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Executes a schedule against one queue's stores (its own, and its consumer groups'), one step at a time,
 * feeding every call and result to an {@link InvariantChecker} and writing one canonical trace line per step.
 *
 * <p>Like a real worker, the run knows only what the store told it: which tasks each consumer was
 * given in each view and has not yet given back (a crashed consumer keeps that memory unless it restarts,
 * so its late acks meet lost leases; a deleted group's consumers keep theirs too), and every id published.
 * Selectors resolve against that view, so two stores that answer alike are driven alike.
 *
 * <p>A trace line reads {@code <step> @<ms since start> [in <group>: ]<call> -> <result> | <stats>}; maps
 * list the ids named in the call in their order, then ids the store added (rule 5) sorted and marked
 * {@code +}; stats are {@code r} ready, {@code d} delayed, {@code f} in flight, {@code x} dead,
 * {@code ap} active / {@code lp} locked / {@code bp} blocked partitions, {@code lc} live consumers,
 * {@code lag}, totals {@code pub}/{@code ack}/{@code dl} (and {@code dropped}, the dead letters the caps dropped,
 * once there are any): the queue's own view's, then those of each group
 * the step may have changed, every group's at a sweep ({@code | g0: r=...}).
 */
final class SimulationRun {
    private static final int MAX_DRAIN_ROUNDS = 100_000;
    private static final int DRAIN_BATCH = 10;
    private static final int DEAD_LETTER_PAGE = 500;

    private final Schedule schedule;
    private final Function<Optional<GroupName>, TaskStore> views;
    private final Map<Optional<GroupName>, TaskStore> stores = new HashMap<>();
    private final TaskStore own;
    private final VirtualClock clock;
    private final SimulationOptions options;
    private final String storeName;
    private final InvariantChecker checker;
    private final long start;
    private final List<String> lines = new ArrayList<>();
    /** What each consumer holds in each view, as far as it knows. */
    private final Map<Optional<GroupName>, Map<ConsumerId, LinkedHashSet<TaskId>>> held = new HashMap<>();
    private final List<TaskId> known = new ArrayList<>();
    private final Set<TaskId> knownSet = new HashSet<>();
    private int next;
    /** The view the step in progress goes through (empty: the queue's own store), and its store. */
    /** Whether the queue's own view keeps results: its acks are completes then, carrying results. */
    private boolean keepsResults;
    private Optional<GroupName> view = Optional.empty();
    private TaskStore store;
    /** The step's view as the trace shows it: {@code in g0: } for a group's store, else nothing. */
    private String where = "";
    private String current = "";

    /**
     * {@code views} gives the store of each view of one fresh queue: the queue's own for empty, the named
     * consumer group's otherwise (asked once per view).
     */
    SimulationRun(Schedule schedule, Function<Optional<GroupName>, TaskStore> views, VirtualClock clock,
                  SimulationOptions options) {
        this.schedule = schedule;
        this.views = views;
        this.own = storeOf(Optional.empty());
        this.clock = clock;
        this.options = options;
        this.storeName = own.getClass().getSimpleName();
        this.checker = new InvariantChecker(this::storeOf);
        this.start = clock.millis();
    }

    private TaskStore storeOf(Optional<GroupName> view) {
        return stores.computeIfAbsent(view, views);
    }

    boolean hasNext() {
        return next < schedule.steps().size();
    }

    int nextIndex() {
        return next;
    }

    Trace trace() {
        return new Trace(schedule.seed(), lines);
    }

    String storeName() {
        return storeName;
    }

    /** Runs every remaining step. */
    Trace runAll() {
        while (hasNext()) {
            step();
        }
        return trace();
    }

    /** Runs the next step and returns its trace line; throws {@link SimulationFailure} on a violation. */
    String step() {
        int index = next++;
        Step step = schedule.steps().get(index);
        view = step instanceof Step.InGroup in ? Optional.of(in.group()) : Optional.empty();
        store = storeOf(view);
        Step call = step instanceof Step.InGroup in ? in.step() : step;
        where = view.map(group -> "in " + group + ": ").orElse("");
        current = call.describe();
        try {
            if (index == 0) {
                requireEmpty();
            }
            String result = execute(index, call);
            current = current + " -> " + result;
            long now = clock.millis();
            boolean sweep = index % options.sweepEvery() == 0 || !hasNext();
            StringBuilder stats = new StringBuilder();
            for (Optional<GroupName> each : checker.views()) {
                if (!sweep && !mayHaveChanged(each, call)) {
                    continue;
                }
                QueueStats viewStats = storeOf(each).stats();
                afterStep(each, viewStats, now, sweep);
                stats.append(each.map(group -> " | " + group + ": ").orElse("")).append(render(viewStats));
            }
            if (sweep) {
                checker.checkSchedules(now);
            }
            String line = String.format("%04d @%d %s%s | %s", index, now - start, where, current, stats);
            lines.add(line);
            return line;
        } catch (InvariantViolation violation) {
            throw failure(index, violation.invariant(), violation.getMessage(), null);
        } catch (RuntimeException e) {
            throw failure(index, Invariant.NO_EXCEPTION, e.toString(), e);
        }
    }

    /**
     * Whether the step may have changed the view's stats, so they are read and checked after it: the queue's
     * own view's after every step, as without groups; a group's after a step through its store, its
     * creation, and every step that moves the clock or reaches every view (publish, fire, advance, configure
     * through the queue's store). At a sweep every view is checked, so a step that changed a view it should
     * not have is caught there at the latest.
     */
    private boolean mayHaveChanged(Optional<GroupName> each, Step call) {
        return each.isEmpty() || each.equals(view) || call instanceof Step.Publish || call instanceof Step.FireSchedules
                || call instanceof Step.Advance || call instanceof Step.Configure && view.isEmpty()
                || call instanceof Step.CreateGroup create && each.get().equals(create.group());
    }

    /** The view's read-back checks; a group's violation says which group. */
    private void afterStep(Optional<GroupName> each, QueueStats stats, long now, boolean sweep) {
        try {
            checker.view(each).afterStep(stats, now, sweep);
        } catch (InvariantViolation violation) {
            throw each.isEmpty() ? violation : new InvariantViolation(violation.invariant(),
                    "group " + each.get() + ": " + violation.getMessage());
        }
    }

    private SimulationFailure failure(int index, String invariant, String detail, Throwable cause) {
        return SimulationFailure.of(schedule.seed(), index, storeName + ": " + where + current, invariant, detail,
                trace().tail(options.traceTail()), options.replayCommandFor(schedule.seed()), cause);
    }

    private void requireEmpty() {
        QueueStats stats = own.stats();
        if (stats.publishedTotal() != 0 || stats.ready() + stats.delayed() + stats.inFlight() + stats.dead() != 0
                || !own.groups().isEmpty()) {
            throw new InvariantViolation(Invariant.NO_EXCEPTION, "the simulation needs a fresh, empty queue; "
                    + own.queue() + " has " + render(stats) + " and groups " + own.groups());
        }
    }

    /**
     * Makes the step's calls through the view's store. Publishing, the schedules and the groups'
     * administration are the queue's through any store; any other call on a group that does not exist must
     * be refused naming {@code group}.
     */
    private String execute(int index, Step step) {
        boolean queues = step instanceof Step.Publish || step instanceof Step.PutSchedule
                || step instanceof Step.RemoveSchedule || step instanceof Step.FireSchedules
                || step instanceof Step.CreateGroup || step instanceof Step.DeleteGroup;
        if (queues || checker.exists(view)) {
            return call(index, step);
        }
        try {
            // the store must refuse; were it to answer, the checker fails the step as it finds no such view
            return call(index, step);
        } catch (InvalidInputException refused) {
            GroupInvariants.refusedNamingGroup(view.get(), current, refused);
            return "refused (no group " + view.get() + ")";
        }
    }

    private String call(int index, Step step) {
        long now = clock.millis();
        if (step instanceof Step.Configure configure) {
            store.configure(configure.settings());
            if (view.isEmpty()) {
                keepsResults = configure.settings().keepsResults();
            }
            checker.onConfigure(view, configure.settings());
            return "ok";
        }
        if (step instanceof Step.Publish publish) {
            return publish(index, publish, now);
        }
        if (step instanceof Step.CreateGroup create) {
            boolean created = store.createGroup(create.group());
            checker.onCreateGroup(create.group(), created, store.groups());
            return created ? "created" : "exists";
        }
        if (step instanceof Step.DeleteGroup delete) {
            boolean deleted = store.deleteGroup(delete.group());
            checker.onDeleteGroup(delete.group(), deleted, store.groups());
            return deleted ? "deleted" : "none";
        }
        if (step instanceof Step.Consume consume) {
            return consume(consume.consumer(), consume.max(), now);
        }
        if (step instanceof Step.Ack ack) {
            List<TaskId> ids = named("ack", ack.consumer(), ack.selector());
            if (ids.isEmpty()) {
                return "nothing to name";
            }
            return ack(ack.consumer(), ids, now);
        }
        if (step instanceof Step.Reject reject) {
            List<TaskId> ids = named("reject", reject.consumer(), reject.selector());
            current += " delay=" + reject.delayMillis() + " block=" + reject.blockMillis();
            if (ids.isEmpty()) {
                return "nothing to name";
            }
            Rejection rejection = new Rejection(Duration.ofMillis(reject.delayMillis()), "rejected at step " + index,
                    Duration.ofMillis(reject.blockMillis()));
            Map<TaskId, RejectOutcome> result = store.reject(reject.consumer(), ids, rejection);
            checker.view(view).onReject(reject.consumer(), ids, rejection, result, now);
            forget(reject.consumer(), result.keySet());
            return render(ids, result);
        }
        if (step instanceof Step.Fail fail) {
            List<TaskId> ids = named("fail", fail.consumer(), fail.selector());
            if (ids.isEmpty()) {
                return "nothing to name";
            }
            String reason = "failed at step " + index;
            Map<TaskId, FailOutcome> result = store.fail(fail.consumer(), ids, reason);
            checker.view(view).onFail(fail.consumer(), ids, reason, result, now);
            forget(fail.consumer(), result.keySet());
            return render(ids, result);
        }
        if (step instanceof Step.Release release) {
            List<TaskId> ids = named("release", release.consumer(), release.selector());
            if (ids.isEmpty()) {
                return "nothing to name";
            }
            Map<TaskId, ReleaseOutcome> result = store.release(release.consumer(), ids);
            checker.view(view).onRelease(release.consumer(), ids, result, now);
            forget(release.consumer(), result.keySet());
            return render(ids, result);
        }
        if (step instanceof Step.Heartbeat heartbeat) {
            return heartbeat(heartbeat.consumer(), heartbeat.ttlMillis(), Map.of(), now);
        }
        if (step instanceof Step.ReportProgress progress) {
            List<TaskId> ids = named("progress", progress.consumer(), progress.selector());
            Map<TaskId, Progress> reports = new LinkedHashMap<>();
            ids.forEach(id -> reports.put(id, new Progress(progress.percent(), "at step " + index)));
            return heartbeat(progress.consumer(), progress.ttlMillis(), reports, now);
        }
        if (step instanceof Step.ExtendLease extend) {
            List<TaskId> ids = named("extend", extend.consumer(), extend.selector());
            if (ids.isEmpty()) {
                return "nothing to name";
            }
            Map<TaskId, ExtendOutcome> result = store.extendLease(extend.consumer(), ids,
                    Duration.ofMillis(extend.extensionMillis()));
            checker.view(view).onExtend(extend.consumer(), ids, extend.extensionMillis(), result, now);
            return render(ids, result);
        }
        if (step instanceof Step.Reclaim) {
            // the reaper: reclaim, then the trim of the dead letters past the caps
            ReclaimReport report = store.reclaim();
            checker.view(view).onReclaim(report, now);
            long dropped = store.trimDeadLetters();
            checker.view(view).onTrimDeadLetters(dropped, now);
            long expired = store.expireCompleted();
            checker.view(view).onExpireCompleted(expired, now);
            return "dead=" + report.deadConsumers().stream().map(ConsumerId::value).sorted().toList()
                    + " returned=" + report.returned() + " deadLettered=" + report.deadLettered()
                    + " timedOut=" + report.timedOut() + " cancelled=" + report.cancelled()
                    + (dropped > 0 ? " dropped=" + dropped : "") + (expired > 0 ? " expired=" + expired : "");
        }
        if (step instanceof Step.Advance advance) {
            clock.advanceMillis(advance.millis());
            return "ok";
        }
        if (step instanceof Step.Crash) {
            return "stopped";
        }
        if (step instanceof Step.Revive revive) {
            if (revive.forgetsHeld()) {
                held.values().forEach(consumers -> consumers.remove(revive.consumer()));
            }
            return "back";
        }
        if (step instanceof Step.Cancel cancel) {
            List<TaskId> ids = pickDistinct(known, cancel.count(), new SplittableRandom(cancel.choice()));
            current = "cancel " + ids;
            if (ids.isEmpty()) {
                return "nothing to name";
            }
            Map<TaskId, CancelOutcome> result = store.cancel(ids);
            checker.view(view).onCancel(ids, result, now);
            return render(ids, result);
        }
        if (step instanceof Step.Block block) {
            store.blockPartition(block.partition(), Duration.ofMillis(block.millis()));
            checker.view(view).onBlock(block.partition(), block.millis(), now);
            return "ok";
        }
        if (step instanceof Step.Unblock unblock) {
            store.unblockPartition(unblock.partition());
            checker.view(view).onUnblock(unblock.partition());
            return "ok";
        }
        if (step instanceof Step.Pause) {
            store.pause();
            checker.view(view).onPause(true);
            return "ok";
        }
        if (step instanceof Step.Resume) {
            store.resume();
            checker.view(view).onPause(false);
            return "ok";
        }
        if (step instanceof Step.Redrive redrive) {
            List<TaskId> ids = deadLetterChoice(redrive.count(), redrive.choice());
            current = "redrive " + ids;
            if (ids.isEmpty()) {
                return "nothing to name";
            }
            Map<TaskId, RedriveOutcome> result = store.redrive(ids);
            checker.view(view).onRedrive(ids, result, now);
            return render(ids, result);
        }
        if (step instanceof Step.RedriveAll) {
            long count = store.redriveAll();
            checker.view(view).onRedriveAll(count, now);
            return Long.toString(count);
        }
        if (step instanceof Step.Purge purge) {
            List<TaskId> ids = deadLetterChoice(purge.count(), purge.choice());
            current = "purge " + ids;
            if (ids.isEmpty()) {
                return "nothing to name";
            }
            long count = store.purgeDeadLetters(ids);
            checker.view(view).onPurge(ids, count, now);
            return Long.toString(count);
        }
        if (step instanceof Step.PurgeAll) {
            long count = store.purgeAllDeadLetters();
            checker.view(view).onPurgeAll(count, now);
            return Long.toString(count);
        }
        if (step instanceof Step.PutSchedule put) {
            io.ordo.domain.Schedule definition = put.spec().resolve(now);
            boolean created = store.putSchedule(definition);
            checker.onPutSchedule(definition, created, now);
            return created ? "created" : "replaced";
        }
        if (step instanceof Step.RemoveSchedule remove) {
            boolean existed = store.removeSchedule(remove.id());
            checker.onRemoveSchedule(remove.id(), existed, now);
            return existed ? "removed" : "unknown";
        }
        if (step instanceof Step.FireSchedules fire) {
            return fire(fire);
        }
        if (step instanceof Step.Drain drain) {
            return drain(drain.consumer());
        }
        if (step instanceof Step.ReadEvents) {
            return readEvents();
        }
        throw new IllegalStateException("unknown step " + step);
    }

    private String publish(int index, Step.Publish publish, long now) {
        List<NewTask> batch = new ArrayList<>();
        List<TaskId> candidates = new ArrayList<>(known);
        for (Step.TaskSpec spec : publish.tasks()) {
            TaskId id = spec.reuseId() && !candidates.isEmpty()
                    ? candidates.get(new SplittableRandom(spec.reuseChoice()).nextInt(candidates.size()))
                    : TaskId.of(spec.id());
            candidates.add(id);
            byte[] payload = (id + " published at step " + index).getBytes(StandardCharsets.UTF_8);
            batch.add(NewTask.builder(spec.partition(), payload).id(id).priority(spec.priority())
                    .delay(Duration.ofMillis(spec.delayMillis())).timeout(Duration.ofMillis(spec.timeoutMillis())).build());
        }
        current = "publish " + batch.stream()
                .map(task -> task.id() + "(" + task.partition() + " p" + task.priority().value() + " +"
                        + task.delay().toMillis() + ")")
                .collect(Collectors.joining(" "));
        List<PublishReceipt> receipts = store.publish(batch);
        checker.onPublish(batch, receipts, now);
        for (NewTask task : batch) {
            if (knownSet.add(task.id())) {
                known.add(task.id());
            }
        }
        return receipts.stream().map(receipt -> receipt.id() + "=" + receipt.outcome())
                .collect(Collectors.joining(" "));
    }

    private String consume(ConsumerId consumer, int max, long now) {
        List<Lease> leases = store.consume(consumer, max, Duration.ZERO);
        checker.view(view).onConsume(consumer, max, leases, now);
        for (Lease lease : leases) {
            held(consumer).add(lease.id());
        }
        return leases.isEmpty() ? "none" : leases.stream()
                .map(lease -> lease.id() + "(" + lease.partition() + ")#" + lease.task().attempts())
                .collect(Collectors.joining(" "));
    }

    /** An ack; in a view that keeps results, a complete carrying a result made of the id (every other one empty). */
    private String ack(ConsumerId consumer, List<TaskId> ids, long now) {
        if (!keepsResults) {
            Map<TaskId, AckOutcome> result = store.ack(consumer, ids);
            checker.view(view).onAck(consumer, ids, result, now);
            forget(consumer, result.keySet());
            return render(ids, result);
        }
        Map<TaskId, byte[]> results = new LinkedHashMap<>();
        for (TaskId id : ids) {
            results.put(id, id.value().hashCode() % 2 == 0 ? new byte[0] : ("result of " + id.value()).getBytes(StandardCharsets.UTF_8));
        }
        Map<TaskId, AckOutcome> result = store.complete(consumer, results);
        checker.view(view).onComplete(consumer, results, result, now);
        forget(consumer, result.keySet());
        return render(List.copyOf(results.keySet()), result);
    }

    /** Each firer's count of schedules handled and tasks created, and the created tasks' ids. */
    private String fire(Step.FireSchedules fire) {
        clock.advanceMillis(fire.advanceMillis());
        long now = clock.millis();
        List<String> firings = new ArrayList<>();
        for (int firer = 0; firer < fire.firers(); firer++) {
            ScheduleFiring firing = store.fireDueSchedules();
            List<TaskId> created = checker.onFireSchedules(firing, now);
            for (TaskId id : created) {
                if (knownSet.add(id)) {
                    known.add(id);
                }
            }
            firings.add(firing.schedulesFired() + "/" + firing.tasksCreated() + (created.isEmpty() ? "" : " " + created));
        }
        checker.checkSchedules(now);
        return String.join("; ", firings);
    }

    /** The view's whole event log, one entry per event (a differential run compares what both stores told). */
    private String readEvents() {
        TaskEventPage page = store.events(ListingCursor.START, TaskEvents.MAX_EVENTS);
        List<TaskEvent> events = page.events();
        int length = store.settings().eventLogLength();
        if (events.size() > length) {
            throw new InvariantViolation(Invariant.EVENT_LOG, "the log holds " + events.size()
                    + " events, more than its length " + length);
        }
        for (int i = 1; i < events.size(); i++) {
            if (events.get(i).seq() != events.get(i - 1).seq() + 1) {
                throw new InvariantViolation(Invariant.EVENT_LOG, "event " + events.get(i).seq() + " follows event "
                        + events.get(i - 1).seq());
            }
        }
        return events.stream().map(event -> event.seq() + " " + Labels.of(event.type()) + " " + event.id().value()
                        + " " + event.partition().code() + " @" + event.at().toEpochMilli()
                        + event.reason().map(reason -> " (" + reason + ")").orElse(""))
                .collect(Collectors.joining(", ", "[", "]")) + (page.missed() ? " missed" : "");
    }

    private String drain(ConsumerId consumer) {
        List<String> delivered = new ArrayList<>();
        for (int round = 0; ; round++) {
            if (round == MAX_DRAIN_ROUNDS) {
                throw new InvariantViolation(Invariant.TAKES_WHAT_IS_DUE,
                        "the drain did not end after " + MAX_DRAIN_ROUNDS + " consumes");
            }
            long now = clock.millis();
            List<Lease> leases = store.consume(consumer, DRAIN_BATCH, Duration.ZERO);
            checker.view(view).onConsume(consumer, DRAIN_BATCH, leases, now);
            if (leases.isEmpty()) {
                break;
            }
            List<TaskId> ids = leases.stream().map(Lease::id).toList();
            Map<TaskId, AckOutcome> result = store.ack(consumer, ids);
            checker.view(view).onAck(consumer, ids, result, now);
            leases.forEach(lease -> delivered.add(lease.id() + "#" + lease.task().attempts()));
        }
        checker.view(view).checkDrained();
        held(consumer).clear();
        return "delivered " + delivered.size() + " " + delivered;
    }

    /** Resolves a selector and records the ids in the step's description. */
    /** A heartbeat, with progress for some tasks: its trace names the cancellations it was told of. */
    private String heartbeat(ConsumerId consumer, long ttlMillis, Map<TaskId, Progress> progress, long now) {
        Set<TaskId> cancelRequested = store.heartbeat(consumer, Duration.ofMillis(ttlMillis), progress);
        checker.view(view).onHeartbeat(consumer, ttlMillis, progress, cancelRequested, now);
        return cancelRequested.isEmpty() ? "ok" : "ok cancel-requested=" + cancelRequested.stream().sorted().toList();
    }

    private List<TaskId> named(String operation, ConsumerId consumer, Selector selector) {
        List<TaskId> ids = selector.resolve(held(consumer), known);
        current = operation + " " + consumer + " " + ids;
        return ids;
    }

    /** Lists every dead letter (checking the list) and picks some, sometimes adding an id that is not dead. */
    private List<TaskId> deadLetterChoice(int count, long choice) {
        List<TaskId> dead = new ArrayList<>();
        int offset = 0;
        DeadLetterPage page;
        do {
            page = store.deadLetters(offset, DEAD_LETTER_PAGE);
            checker.view(view).onDeadLetters(page, offset, DEAD_LETTER_PAGE);
            page.items().stream().map(DeadLetter::id).forEach(dead::add);
            offset += page.items().size();
        } while (!page.items().isEmpty() && offset < page.total());
        // Sorted: the list order among tasks that died in the same step is not specified.
        dead.sort(null);
        SplittableRandom random = new SplittableRandom(choice);
        List<TaskId> ids = new ArrayList<>(pickDistinct(dead, count, random));
        if (random.nextInt(4) == 0 && !known.isEmpty()) {
            TaskId other = known.get(random.nextInt(known.size()));
            if (!ids.contains(other)) {
                ids.add(other);
            }
        }
        return ids;
    }

    private static List<TaskId> pickDistinct(List<TaskId> pool, int count, SplittableRandom random) {
        List<TaskId> left = new ArrayList<>(pool);
        List<TaskId> picked = new ArrayList<>();
        while (picked.size() < count && !left.isEmpty()) {
            picked.add(left.remove(random.nextInt(left.size())));
        }
        return picked;
    }

    /** What the consumer holds in the step's view. */
    private LinkedHashSet<TaskId> held(ConsumerId consumer) {
        return held.computeIfAbsent(view, v -> new HashMap<>()).computeIfAbsent(consumer, c -> new LinkedHashSet<>());
    }

    private void forget(ConsumerId consumer, Set<TaskId> ids) {
        held(consumer).removeAll(ids);
    }

    /** Named ids in the order given, then ids the store added, sorted and marked. */
    private static String render(List<TaskId> named, Map<TaskId, ?> result) {
        StringBuilder text = new StringBuilder();
        for (TaskId id : named) {
            text.append(text.length() == 0 ? "" : " ").append(id).append('=').append(result.get(id));
        }
        result.keySet().stream().filter(id -> !named.contains(id)).sorted()
                .forEach(id -> text.append(" +").append(id).append('=').append(result.get(id)));
        return text.toString();
    }

    private static String render(QueueStats stats) {
        return "r=" + stats.ready() + " d=" + stats.delayed() + " f=" + stats.inFlight() + " x=" + stats.dead()
                + " ap=" + stats.activePartitions() + " lp=" + stats.lockedPartitions()
                + " bp=" + stats.blockedPartitions() + " cp=" + stats.cappedPartitions()
                + " tp=" + stats.throttledPartitions() + " lc=" + stats.liveConsumers()
                + " lag=" + stats.oldestDueAgeMillis() + " pub=" + stats.publishedTotal()
                + " ack=" + stats.ackedTotal() + " dl=" + stats.deadLetteredTotal()
                + (stats.deadLettersDroppedTotal() > 0 ? " dropped=" + stats.deadLettersDroppedTotal() : "")
                + (stats.paused() ? " paused" : "");
    }
}
