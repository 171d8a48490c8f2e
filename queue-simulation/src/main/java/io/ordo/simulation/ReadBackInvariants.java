package io.ordo.simulation;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.DeadLetter;
import io.ordo.domain.Task;
import io.ordo.domain.TaskId;
import io.ordo.domain.TaskState;
import io.ordo.ports.Completion;
import io.ordo.ports.DeadLetterPage;
import io.ordo.ports.LeaseStatus;
import io.ordo.ports.QueueStats;
import io.ordo.ports.TaskSnapshot;
import io.ordo.ports.TaskStore;
import io.ordo.simulation.ModelTask.State;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import static io.ordo.simulation.InvariantViolation.fail;

/**
 * What one view's store shows when read back: the stats equal the model's counts; every task found with
 * {@code get} and the dead-letter list agree with the model (nothing lost, nothing resurrected, attempts,
 * times and publish-ordered seqs right, a task's seq the same in every group); after the drain only dead
 * letters are left.
 */
final class ReadBackInvariants {

    private final QueueModel model;
    private final ViewsModel queue;
    private final TaskStore store;

    /** The checks of one view ({@code model}, read through {@code store}) of {@code queue}. */
    ReadBackInvariants(QueueModel model, ViewsModel queue, TaskStore store) {
        this.model = model;
        this.queue = queue;
        this.store = store;
    }

    /** Checks one page of the dead-letter list against the model. */
    void onDeadLetters(DeadLetterPage page, int offset, int limit) {
        List<ModelTask> dead = model.inState(State.DEAD);
        if (page.total() != dead.size()) {
            fail(Invariant.DEAD_LETTERS, "the dead-letter list has total %d, the model %d dead letters: %s",
                    page.total(), dead.size(), dead);
        }
        int expectedSize = Math.max(0, Math.min(limit, dead.size() - offset));
        if (page.items().size() != expectedSize) {
            fail(Invariant.DEAD_LETTERS, "dead letters page at %d (limit %d) has %d items, expected %d", offset,
                    limit, page.items().size(), expectedSize);
        }
        long lastOp = Long.MIN_VALUE;
        Set<TaskId> seen = new HashSet<>();
        for (DeadLetter letter : page.items()) {
            ModelTask task = model.tasks.get(letter.id());
            if (!seen.add(letter.id())) {
                fail(Invariant.DEAD_LETTERS, "the dead letters list %s twice", letter.id());
            }
            if (task == null || task.state != State.DEAD) {
                fail(Invariant.DEAD_LETTERS, "the dead letters list %s, which is %s", letter.id(),
                        model.describeId(letter.id()));
            }
            if (task.deadOp < lastOp) {
                fail(Invariant.DEAD_LETTERS, "dead letters not oldest first: %s died before the one listed above it",
                        letter.id());
            }
            lastOp = task.deadOp;
            if (letter.deadAt() != task.deadAt) {
                fail(Invariant.DEAD_LETTERS, "%s died at %d, the dead letter says %d", task.id, task.deadAt,
                        letter.deadAt());
            }
            boolean reasonOk = letter.reason() != null && (task.deadReasonIsPrefix
                    ? letter.reason().startsWith(task.deadReason) : letter.reason().equals(task.deadReason));
            if (!reasonOk) {
                fail(Invariant.DEAD_LETTERS, "dead letter %s has reason '%s', expected '%s'%s", task.id,
                        letter.reason(), task.deadReason, task.deadReasonIsPrefix ? "…" : "");
            }
            checkTask(letter.task(), task, "dead letter " + task.id, false);
        }
    }

    /**
     * After a reclaim whose dead letters the caps dropped some of: the order a reclaim's tasks die in is not
     * fixed (a Redis reclaim takes a consumer holding more than a call's chunk back in samples), so neither is
     * which of them a count cap drops. The store's dead-letter list says which it kept: as many as the model
     * keeps, of the tasks that died in this step, and the model follows it (their death order too).
     */
    void settleDeathsOfThisStep() {
        List<ModelTask> droppedNow = model.droppedThisStep();
        if (droppedNow.isEmpty()) {
            return;
        }
        List<ModelTask> died = new ArrayList<>(droppedNow);
        model.inState(State.DEAD).stream().filter(task -> task.deadOp == model.op).forEach(died::add);
        Map<TaskId, ModelTask> byId = new HashMap<>();
        died.forEach(task -> byId.put(task.id, task));
        List<ModelTask> kept = new ArrayList<>();
        int offset = 0;
        DeadLetterPage page;
        do {
            page = store.deadLetters(offset, 500);
            for (DeadLetter letter : page.items()) {
                ModelTask task = byId.get(letter.id());
                if (task != null) {
                    kept.add(task);
                }
            }
            offset += page.items().size();
        } while (!page.items().isEmpty() && offset < page.total());
        long keptByModel = died.size() - droppedNow.size();
        if (kept.size() != keptByModel) {
            fail(Invariant.DEAD_LETTERS, "of the %d tasks that died in this step the store keeps %d dead letters %s,"
                    + " the caps keep %d", died.size(), kept.size(), kept, keptByModel);
        }
        List<Long> orders = died.stream().filter(task -> task.state == State.DEAD).map(task -> task.deathOrder)
                .sorted().toList();
        for (ModelTask task : died) {
            if (!kept.contains(task)) {
                task.state = State.GONE;
                task.gone = ModelTask.Gone.DROPPED;
            }
        }
        for (int i = 0; i < kept.size(); i++) {
            ModelTask task = kept.get(i);
            task.state = State.DEAD;
            task.gone = null;
            task.deathOrder = orders.get(i);
        }
    }

    /** Compares the stats with the model; with {@code sweep}, also every task and the dead-letter list. */
    void afterStep(QueueStats stats, long now, boolean sweep) {
        checkStats(stats, now);
        if (sweep) {
            sweep(now);
        }
    }

    /** After the drain: nothing may be left but dead letters. */
    void checkDrained() {
        List<ModelTask> left = new ArrayList<>(model.inState(State.WAITING));
        left.addAll(model.inState(State.HELD));
        if (!left.isEmpty()) {
            fail(Invariant.NO_TASK_LOST, "after the drain these tasks were never delivered: %s", left);
        }
    }

    private void checkStats(QueueStats stats, long now) {
        long ready = 0;
        long delayed = 0;
        long inFlight = 0;
        long dead = 0;
        long oldestReady = Long.MAX_VALUE;
        for (ModelTask task : model.tasks.values()) {
            switch (task.state) {
                case WAITING -> {
                    if (task.readyAt <= now) {
                        ready++;
                        oldestReady = Math.min(oldestReady, task.readyAt);
                    } else {
                        delayed++;
                    }
                }
                case HELD -> inFlight++;
                case DEAD -> dead++;
                default -> {
                }
            }
        }
        long blocked = model.blockedUntil.values().stream().filter(until -> until > now).count();
        long live = model.registered.values().stream().filter(expiresAt -> expiresAt > now).count();
        long capped = model.waiting.keySet().stream().filter(partition -> !model.underCap(partition)).count();
        long throttled = model.waiting.keySet().stream()
                .filter(partition -> model.buckets.partitionTokens(model.settings, partition, now) < 1).count();
        QueueStats expected = new QueueStats(ready, delayed, inFlight, dead, model.waiting.size(),
                model.lockedPartitions().size(), blocked, capped, throttled, live, ready == 0 ? 0 : now - oldestReady, model.publishedTotal,
                model.ackedTotal, model.deadLetteredTotal, model.deadLettersDroppedTotal, model.paused,
                model.keptUntil.size());
        if (!expected.equals(stats)) {
            String invariant = stats.ready() + stats.delayed() + stats.inFlight() + stats.dead()
                    < expected.ready() + expected.delayed() + expected.inFlight() + expected.dead()
                    ? Invariant.NO_TASK_LOST : Invariant.STATS;
            fail(invariant, "stats differ from the model in %s:%n      store: %s%n      model: %s",
                    differingFields(expected, stats), stats, expected);
        }
    }

    private void sweep(long now) {
        for (ModelTask task : model.tasks.values()) {
            Optional<TaskSnapshot> snapshot = store.get(task.id);
            if (task.state == State.GONE && model.keptUntil.containsKey(task.id)) {
                checkCompleted(task, snapshot);
                continue;
            }
            if (task.state == State.GONE) {
                if (snapshot.isPresent()) {
                    fail(Invariant.GONE_STAYS_GONE, "%s was %s at %d but get() still finds it: %s", task.id,
                            task.gone.name().toLowerCase(Locale.ROOT), task.goneAt, snapshot.get());
                }
                continue;
            }
            if (snapshot.isEmpty()) {
                fail(Invariant.NO_TASK_LOST, "get() finds nothing for %s", task);
            }
            TaskSnapshot found = snapshot.get();
            TaskState expected = switch (task.state) {
                case HELD -> TaskState.IN_FLIGHT;
                case DEAD -> TaskState.DEAD;
                default -> task.readyAt <= now ? TaskState.PENDING : TaskState.DELAYED;
            };
            Optional<ConsumerId> holder = Optional.ofNullable(task.state == State.HELD ? task.holder : null);
            if (found.state() != expected || !found.holder().equals(holder)) {
                fail(Invariant.NO_TASK_LOST, "get(%s) says %s %s, expected %s %s (%s)", task.id, found.state(),
                        found.holder().map(Object::toString).orElse(""), expected,
                        holder.map(Object::toString).orElse(""), task);
            }
            checkTask(found.task(), task, "get(" + task.id + ")", task.state != State.DEAD);
            checkLease(found, task);
        }
        int offset = 0;
        int limit = 500;
        DeadLetterPage page;
        do {
            page = store.deadLetters(offset, limit);
            onDeadLetters(page, offset, limit);
            offset += page.items().size();
        } while (!page.items().isEmpty() && offset < page.total());
    }

    /** A completed task kept (docs/task-control.md, "Results"): get shows it completed, until when, its result. */
    private void checkCompleted(ModelTask task, Optional<TaskSnapshot> snapshot) {
        if (snapshot.isEmpty() || snapshot.get().state() != TaskState.COMPLETED) {
            fail(Invariant.NO_TASK_LOST, "%s was acked at %d and is kept until %d, but get() finds %s", task.id,
                    task.goneAt, model.keptUntil.get(task.id), snapshot);
        }
        Completion completion = snapshot.get().completion().orElseThrow();
        if (completion.completedAt().toEpochMilli() != task.goneAt
                || completion.keptUntil().toEpochMilli() != model.keptUntil.get(task.id)
                || !Arrays.equals(completion.result(), model.keptResults.get(task.id))) {
            fail(Invariant.TASK_FIELDS, "get(%s) shows completion %s, expected acked at %d, kept until %d, result %s",
                    task.id, completion, task.goneAt, model.keptUntil.get(task.id),
                    Arrays.toString(model.keptResults.get(task.id)));
        }
    }

    /** What get says of a lease (docs/task-control.md): present exactly when held, as the model has it. */
    private void checkLease(TaskSnapshot found, ModelTask task) {
        if (task.state != State.HELD) {
            if (found.lease().isPresent()) {
                fail(Invariant.TASK_FIELDS, "get(%s) shows a lease though it is not held: %s", task.id, found.lease());
            }
            return;
        }
        long deadline = task.deadline(model.settings.processingTimeout().toMillis());
        LeaseStatus expected = new LeaseStatus(Instant.ofEpochMilli(task.leasedAt),
                deadline < 0 ? Optional.empty() : Optional.of(Instant.ofEpochMilli(deadline)), task.cancelRequested,
                Optional.ofNullable(task.progress),
                Optional.ofNullable(task.progress).map(report -> Instant.ofEpochMilli(task.progressAt)));
        if (!found.lease().equals(Optional.of(expected))) {
            fail(Invariant.TASK_FIELDS, "get(%s) shows the lease %s, expected %s", task.id, found.lease(), expected);
        }
    }

    /** A task as the store shows it against the model; times are not specified for dead letters. */
    void checkTask(Task actual, ModelTask expected, String where, boolean checkTimes) {
        if (!actual.id().equals(expected.id) || !actual.partition().equals(expected.partition)
                || actual.priority().value() != expected.priority
                || !Arrays.equals(actual.payload(), expected.payload)) {
            fail(Invariant.TASK_FIELDS, "%s shows %s, published as %s", where, actual, expected);
        }
        if (actual.attempts() != expected.attempts) {
            fail(Invariant.ATTEMPTS, "%s has attempts=%d, expected %d: %s", where, actual.attempts(),
                    expected.attempts, expected);
        }
        if (checkTimes && (actual.dueAt() != expected.dueAt || actual.readyAt() != expected.readyAt)) {
            fail(Invariant.TASK_FIELDS, "%s has dueAt=%d readyAt=%d, expected %d and %d", where, actual.dueAt(),
                    actual.readyAt(), expected.dueAt, expected.readyAt);
        }
        observeSeq(expected, actual.seq(), where);
    }

    private void observeSeq(ModelTask task, long seq, String where) {
        if (task.seq >= 0) {
            if (task.seq != seq) {
                fail(Invariant.TASK_FIELDS, "%s has seq %d, it was %d before", where, seq, task.seq);
            }
            return;
        }
        // seq is the queue's: one counter over every view, so a task has the same seq in every group
        Long same = queue.seqByCreated.get(task.created);
        if (same != null && same != seq) {
            fail(Invariant.TASK_FIELDS, "%s has seq %d, the same task has seq %d in another group", where, seq, same);
        }
        Map.Entry<Long, Long> before = queue.seqByCreated.lowerEntry(task.created);
        Map.Entry<Long, Long> after = queue.seqByCreated.higherEntry(task.created);
        if ((before != null && before.getValue() >= seq) || (after != null && after.getValue() <= seq)) {
            fail(Invariant.TASK_FIELDS, "%s has seq %d, out of publish order with the seqs seen so far %s", where,
                    seq, queue.seqByCreated.values());
        }
        queue.seqByCreated.put(task.created, seq);
        task.seq = seq;
    }

    private static String differingFields(QueueStats expected, QueueStats actual) {
        List<String> names = new ArrayList<>();
        var components = QueueStats.class.getRecordComponents();
        for (var component : components) {
            try {
                Object a = component.getAccessor().invoke(expected);
                Object b = component.getAccessor().invoke(actual);
                if (!Objects.equals(a, b)) {
                    names.add(component.getName() + " " + b + " (expected " + a + ")");
                }
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
        return String.join(", ", names);
    }
}
