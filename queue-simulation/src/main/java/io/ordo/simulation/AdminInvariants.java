package io.ordo.simulation;

import io.ordo.domain.Partition;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.TaskId;
import io.ordo.ports.CancelOutcome;
import io.ordo.ports.RedriveOutcome;
import io.ordo.simulation.ModelTask.Gone;
import io.ordo.simulation.ModelTask.State;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.ordo.simulation.InvariantViolation.fail;

/** The operator's calls on one view: settings, cancel, blocks, pause, and redriving or purging dead letters. */
final class AdminInvariants {

    private final QueueModel model;
    private final OutcomeChecks outcomes;

    AdminInvariants(QueueModel model, OutcomeChecks outcomes) {
        this.model = model;
        this.outcomes = outcomes;
    }

    /**
     * The view was configured: a changed rate limit's bucket starts full (its store's settings are read back by
     * {@link GroupInvariants}).
     */
    void onConfigure(QueueSettings requested) {
        model.buckets.configured(model.settings, requested);
        model.settings = requested;
    }

    void onCancel(List<TaskId> ids, Map<TaskId, CancelOutcome> result, long now) {
        model.begin();
        outcomes.checkKeys("cancel", result, ids, Set.of());
        for (TaskId id : ids) {
            ModelTask task = model.tasks.get(id);
            State state = task == null ? State.GONE : task.state;
            CancelOutcome expected = switch (state) {
                case WAITING, DEAD -> CancelOutcome.CANCELLED;
                case HELD -> CancelOutcome.CANCEL_REQUESTED;
                case GONE -> model.keptUntil.containsKey(id) ? CancelOutcome.CANCELLED : CancelOutcome.UNKNOWN;
            };
            outcomes.expect("cancel", id, result.get(id), expected);
            if (state == State.GONE && expected == CancelOutcome.CANCELLED) {
                model.forgetCompleted(id); // a completed task kept: deleted, its ack remembered as before
            } else if (expected == CancelOutcome.CANCELLED) {
                model.gone(task, Gone.CANCELLED, now);
            } else if (expected == CancelOutcome.CANCEL_REQUESTED) {
                task.cancelRequested = true;
            }
        }
        model.end();
    }

    void onBlock(Partition partition, long millis, long now) {
        model.begin();
        model.blockedUntil.put(partition, now + millis);
        model.end();
    }

    void onUnblock(Partition partition) {
        model.begin();
        model.blockedUntil.remove(partition);
        model.end();
    }

    void onPause(boolean pause) {
        model.begin();
        model.paused = pause;
        model.end();
    }

    void onRedrive(List<TaskId> ids, Map<TaskId, RedriveOutcome> result, long now) {
        model.begin();
        outcomes.checkKeys("redrive", result, ids, Set.of());
        for (TaskId id : ids) {
            ModelTask task = model.tasks.get(id);
            boolean dead = task != null && task.state == State.DEAD;
            outcomes.expect("redrive", id, result.get(id), dead ? RedriveOutcome.REDRIVEN : RedriveOutcome.UNKNOWN);
            if (dead) {
                model.redrive(task, now);
            }
        }
        model.end();
    }

    void onRedriveAll(long count, long now) {
        model.begin();
        List<ModelTask> dead = model.inState(State.DEAD);
        if (count != dead.size()) {
            fail(Invariant.OUTCOMES, "redriveAll returned %d, there were %d dead letters", count, dead.size());
        }
        dead.forEach(task -> model.redrive(task, now));
        model.end();
    }

    void onPurge(List<TaskId> ids, long count, long now) {
        model.begin();
        int expected = 0;
        for (TaskId id : new LinkedHashSet<>(ids)) {
            ModelTask task = model.tasks.get(id);
            if (task != null && task.state == State.DEAD) {
                model.gone(task, Gone.PURGED, now);
                expected++;
            }
        }
        if (count != expected) {
            fail(Invariant.OUTCOMES, "purging %s deleted %d, expected %d", ids, count, expected);
        }
        model.end();
    }

    void onPurgeAll(long count, long now) {
        model.begin();
        List<ModelTask> dead = model.inState(State.DEAD);
        if (count != dead.size()) {
            fail(Invariant.OUTCOMES, "purgeAllDeadLetters returned %d, there were %d dead letters", count, dead.size());
        }
        dead.forEach(task -> model.gone(task, Gone.PURGED, now));
        model.end();
    }
}
