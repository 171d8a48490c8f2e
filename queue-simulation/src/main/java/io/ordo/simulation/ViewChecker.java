package io.ordo.simulation;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.Partition;
import io.ordo.domain.Progress;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.TaskId;
import io.ordo.ports.AckOutcome;
import io.ordo.ports.CancelOutcome;
import io.ordo.ports.DeadLetterPage;
import io.ordo.ports.ExtendOutcome;
import io.ordo.ports.FailOutcome;
import io.ordo.ports.QueueStats;
import io.ordo.ports.ReclaimReport;
import io.ordo.ports.RedriveOutcome;
import io.ordo.ports.RejectOutcome;
import io.ordo.ports.Rejection;
import io.ordo.ports.ReleaseOutcome;
import io.ordo.ports.TaskStore;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The checks of one view of the queue (its own, or a consumer group's), each family over the view's
 * {@link QueueModel}: {@link DeliveryInvariants} (consume), {@link SettlementInvariants} (ack, reject, fail,
 * release, heartbeat, reclaim), {@link AdminInvariants} (cancel, blocks, pause, dead-letter admin) and
 * {@link ReadBackInvariants} (stats, {@code get}, the dead-letter list, the drain), read through the
 * view's store.
 */
final class ViewChecker {

    final QueueModel model;
    private final ReadBackInvariants readBack;
    private final DeliveryInvariants delivery;
    private final SettlementInvariants settlement;
    private final AdminInvariants admin;

    ViewChecker(QueueModel model, ViewsModel queue, TaskStore store) {
        OutcomeChecks outcomes = new OutcomeChecks(model);
        this.model = model;
        this.readBack = new ReadBackInvariants(model, queue, store);
        this.delivery = new DeliveryInvariants(model, readBack);
        this.settlement = new SettlementInvariants(model, outcomes);
        this.admin = new AdminInvariants(model, outcomes);
    }

    void onConsume(ConsumerId consumer, int max, List<Lease> leases, long now) {
        delivery.onConsume(consumer, max, leases, now);
    }

    void onAck(ConsumerId consumer, List<TaskId> ids, Map<TaskId, AckOutcome> result, long now) {
        settlement.onAck(consumer, ids, result, now);
    }

    void onReject(ConsumerId consumer, List<TaskId> ids, Rejection rejection, Map<TaskId, RejectOutcome> result,
                  long now) {
        settlement.onReject(consumer, ids, rejection, result, now);
    }

    void onFail(ConsumerId consumer, List<TaskId> ids, String reason, Map<TaskId, FailOutcome> result, long now) {
        settlement.onFail(consumer, ids, reason, result, now);
    }

    void onRelease(ConsumerId consumer, List<TaskId> ids, Map<TaskId, ReleaseOutcome> result, long now) {
        settlement.onRelease(consumer, ids, result, now);
    }

    void onHeartbeat(ConsumerId consumer, long ttlMillis, Map<TaskId, Progress> progress, Set<TaskId> cancelRequested,
                     long now) {
        settlement.onHeartbeat(consumer, ttlMillis, progress, cancelRequested, now);
    }

    void onExtend(ConsumerId consumer, List<TaskId> ids, long extensionMillis, Map<TaskId, ExtendOutcome> result,
                  long now) {
        settlement.onExtend(consumer, ids, extensionMillis, result, now);
    }

    void onReclaim(ReclaimReport report, long now) {
        settlement.onReclaim(report, now);
        readBack.settleDeathsOfThisStep();
    }

    void onComplete(ConsumerId consumer, Map<TaskId, byte[]> results, Map<TaskId, AckOutcome> result, long now) {
        settlement.onComplete(consumer, results, result, now);
    }

    void onExpireCompleted(long expired, long now) {
        settlement.onExpireCompleted(expired, now);
    }

    void onTrimDeadLetters(long dropped, long now) {
        settlement.onTrimDeadLetters(dropped, now);
    }

    void onConfigure(QueueSettings requested) {
        admin.onConfigure(requested);
    }

    void onCancel(List<TaskId> ids, Map<TaskId, CancelOutcome> result, long now) {
        admin.onCancel(ids, result, now);
    }

    void onBlock(Partition partition, long millis, long now) {
        admin.onBlock(partition, millis, now);
    }

    void onUnblock(Partition partition) {
        admin.onUnblock(partition);
    }

    void onPause(boolean pause) {
        admin.onPause(pause);
    }

    void onRedrive(List<TaskId> ids, Map<TaskId, RedriveOutcome> result, long now) {
        admin.onRedrive(ids, result, now);
    }

    void onRedriveAll(long count, long now) {
        admin.onRedriveAll(count, now);
    }

    void onPurge(List<TaskId> ids, long count, long now) {
        admin.onPurge(ids, count, now);
    }

    void onPurgeAll(long count, long now) {
        admin.onPurgeAll(count, now);
    }

    void onDeadLetters(DeadLetterPage page, int offset, int limit) {
        readBack.onDeadLetters(page, offset, limit);
    }

    /** The view's stats against its model; with {@code sweep}, every task and the dead-letter list too. */
    void afterStep(QueueStats stats, long now, boolean sweep) {
        readBack.afterStep(stats, now, sweep);
    }

    void checkDrained() {
        readBack.checkDrained();
    }
}
