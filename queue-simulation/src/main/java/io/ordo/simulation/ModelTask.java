package io.ordo.simulation;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.Progress;
import io.ordo.domain.TaskId;

import java.util.Comparator;
import java.util.Locale;

/** One incarnation of a task id as the model expects it. */
final class ModelTask {

    enum State { WAITING, HELD, DEAD, GONE }

    enum Gone { ACKED, CANCELLED, PURGED, DROPPED }

    /** The ordering key, with the model's creation order standing in for seq. */
    static final Comparator<ModelTask> KEY = Comparator
            .comparingInt((ModelTask task) -> -task.priority)
            .thenComparingLong(task -> task.dueAt)
            .thenComparingLong(task -> task.created);

    final TaskId id;
    final Partition partition;
    final int priority;
    final byte[] payload;
    /** Creation order within the queue: stands in for seq. */
    final long created;
    long dueAt;
    long readyAt;
    int attempts;
    State state = State.WAITING;
    ConsumerId holder;
    /** Whether cancel was asked while it was held: it ends as cancelled when it leaves its holder. */
    boolean cancelRequested;
    /** Its own processing timeout, ms; 0: the queue's. */
    final long ownTimeout;
    /** The deadline an extension of its lease set, epoch ms; -1: none. */
    long extendedUntil = -1;
    /** The last progress reported while held, and when; null: none. */
    Progress progress;
    long progressAt;
    long leasedAt;
    /** The seq the store reported, once seen; -1 before. */
    long seq = -1;
    long deadOp;
    /** The view's death order: the caps drop the lowest first (redrive and death again give a new one). */
    long deathOrder;
    long deadAt;
    String deadReason;
    boolean deadReasonIsPrefix;
    Gone gone;
    long goneAt;

    ModelTask(NewTask request, long created, long now) {
        this.id = request.id();
        this.partition = request.partition();
        this.priority = request.priority().value();
        this.payload = request.payload();
        this.created = created;
        this.dueAt = request.dueAt(now);
        this.readyAt = dueAt;
        this.ownTimeout = request.timeout().toMillis();
    }

    /** It left its holder's hands: nothing said of its lease stays. */
    void leaveHolder() {
        holder = null;
        cancelRequested = false;
        extendedUntil = -1;
        progress = null;
    }

    /**
     * When the store takes it back though its holder lives (held), epoch ms, or -1 for never: an extension's
     * deadline, else its own timeout or the queue's after the lease.
     */
    long deadline(long queueTimeoutMillis) {
        if (extendedUntil >= 0) {
            return extendedUntil;
        }
        long timeout = ownTimeout > 0 ? ownTimeout : queueTimeoutMillis;
        return timeout > 0 ? leasedAt + timeout : -1;
    }

    @Override
    public String toString() {
        String where = switch (state) {
            case WAITING -> "waiting";
            case HELD -> "held by " + holder;
            case DEAD -> "dead";
            case GONE -> gone.name().toLowerCase(Locale.ROOT);
        };
        return id + "[" + partition + " p" + priority + " due=" + dueAt + " ready=" + readyAt + " attempts="
                + attempts + " " + where + "]";
    }
}
