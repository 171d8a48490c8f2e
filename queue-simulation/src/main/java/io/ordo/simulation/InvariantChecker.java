package io.ordo.simulation;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.Schedule;
import io.ordo.domain.TaskId;
import io.ordo.ports.AckOutcome;
import io.ordo.ports.CancelOutcome;
import io.ordo.ports.DeadLetterPage;
import io.ordo.ports.FailOutcome;
import io.ordo.ports.PublishReceipt;
import io.ordo.ports.QueueStats;
import io.ordo.ports.ReclaimReport;
import io.ordo.ports.RedriveOutcome;
import io.ordo.ports.RejectOutcome;
import io.ordo.ports.Rejection;
import io.ordo.ports.ReleaseOutcome;
import io.ordo.ports.ScheduleFiring;
import io.ordo.ports.TaskStore;

import java.util.List;
import java.util.Map;

/**
 * A reference model of what must hold, written from docs/contract.md and docs/semantics.md and fed with
 * every call and its result. It does not predict a store's answers where the rules leave a
 * choice; it checks each answer against the rules and follows the state the answer implies:
 *
 * <ul>
 *   <li>consume: every task taken was waiting, due, in an unblocked partition of a running queue;
 *       it was its partition's head; no eligible partition had a higher-priority head or (at equal
 *       priority) an earlier turn; an ordered partition was not held and gave a consecutive run in
 *       key order; fewer than {@code max} only when nothing eligible was left; attempts + 1;</li>
 *   <li>ack, reject, fail, release, cancel, redrive, purge, reclaim: the per-id outcomes follow
 *       from who holds what, attempts and maxAttempts (including rule 5's batch returns, and a
 *       processing timeout taking an ordered batch back as a whole: its first task by key timed out,
 *       the rest returned with it);</li>
 *   <li>after every step the stats equal the model's counts, and every few steps each task read
 *       back with {@code get} and the dead-letter list agree with the model (nothing lost, nothing
 *       resurrected, attempts and times right).</li>
 * </ul>
 *
 * Ordering keys use the model's own creation order in place of {@code seq}; the store's seq values
 * are checked to increase in that order. Where the rules leave a choice the checker accepts either
 * (docs/simulation.md lists them); the differential test is the one that expects two stores to agree.
 *
 * <p>This is the run's one entry point. Each family of invariants lives in its own class over one shared
 * {@link QueueModel}: {@link DeliveryInvariants} (publish, consume), {@link SettlementInvariants} (ack,
 * reject, fail, release, heartbeat, reclaim), {@link AdminInvariants} (settings, cancel, blocks, pause,
 * dead-letter admin) and {@link ReadBackInvariants} (stats, {@code get}, the dead-letter list, the drain).
 */
final class InvariantChecker {

    private final ReadBackInvariants readBack;
    private final DeliveryInvariants delivery;
    private final SettlementInvariants settlement;
    private final AdminInvariants admin;
    private final ScheduleInvariants schedules;
    private final TaskStore store;

    InvariantChecker(TaskStore store) {
        QueueModel model = new QueueModel();
        OutcomeChecks outcomes = new OutcomeChecks(model);
        this.readBack = new ReadBackInvariants(model, store);
        this.delivery = new DeliveryInvariants(model, readBack);
        this.settlement = new SettlementInvariants(model, outcomes);
        this.admin = new AdminInvariants(model, outcomes);
        this.schedules = new ScheduleInvariants(model, store);
        this.store = store;
    }

    void onConfigure(QueueSettings requested, QueueSettings stored) {
        admin.onConfigure(requested, stored);
    }

    void onPublish(List<NewTask> batch, List<PublishReceipt> receipts, long now) {
        delivery.onPublish(batch, receipts, now);
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

    void onRelease(ConsumerId consumer, List<TaskId> ids, Map<TaskId, ReleaseOutcome> result) {
        settlement.onRelease(consumer, ids, result);
    }

    void onHeartbeat(ConsumerId consumer, long ttlMillis, long now) {
        settlement.onHeartbeat(consumer, ttlMillis, now);
    }

    void onReclaim(ReclaimReport report, long now) {
        settlement.onReclaim(report, now);
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

    void onPutSchedule(Schedule schedule, boolean created, long now) {
        schedules.onPut(schedule, created, now);
        checkSchedules(now);
    }

    void onRemoveSchedule(String id, boolean existed, long now) {
        schedules.onRemove(id, existed);
        checkSchedules(now);
    }

    /** Returns the ids of the tasks the fire created. */
    List<TaskId> onFireSchedules(ScheduleFiring firing, long now) {
        return schedules.onFire(firing, now);
    }

    /** The schedules as the store lists them, after the step's firers. */
    void checkSchedules(long now) {
        schedules.checkListed(store.schedules(), now);
    }

    void afterStep(QueueStats stats, long now, boolean sweep) {
        readBack.afterStep(stats, now, sweep);
        if (sweep) {
            checkSchedules(now);
        }
    }

    void checkDrained() {
        readBack.checkDrained();
    }
}
