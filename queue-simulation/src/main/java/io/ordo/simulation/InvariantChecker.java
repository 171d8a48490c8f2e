package io.ordo.simulation;

import io.ordo.domain.GroupName;
import io.ordo.domain.NewTask;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.Schedule;
import io.ordo.domain.TaskId;
import io.ordo.ports.PublishReceipt;
import io.ordo.ports.ScheduleFiring;
import io.ordo.ports.TaskStore;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * A reference model of what must hold, written from docs/contract.md, docs/semantics.md and docs/groups.md and
 * fed with every call and its result. It does not predict a store's answers where the rules leave a
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
 * <p>This is the run's one entry point. The queue is a {@link ViewsModel}: its own view and one
 * {@link QueueModel} per consumer group, each a queue of its own, checked by a {@link ViewChecker}
 * ({@link #view}) whose families are {@link DeliveryInvariants} (consume), {@link SettlementInvariants} (ack,
 * reject, fail, release, heartbeat, reclaim), {@link AdminInvariants} (settings, cancel, blocks, pause,
 * dead-letter admin) and {@link ReadBackInvariants} (stats, {@code get}, the dead-letter list, the drain).
 * What spans the views is checked here: publishing and the groups' administration ({@link GroupInvariants})
 * and the schedules ({@link ScheduleInvariants}).
 */
final class InvariantChecker {

    private final ViewsModel model = new ViewsModel();
    private final Function<Optional<GroupName>, TaskStore> stores;
    private final GroupInvariants groups;
    private final ScheduleInvariants schedules;
    /** The checker of each view that exists, by name (the own view under the empty name). */
    private final Map<String, ViewChecker> views = new HashMap<>();

    /** {@code stores} gives the store of each view: the queue's own for empty, else the named group's. */
    InvariantChecker(Function<Optional<GroupName>, TaskStore> stores) {
        this.stores = stores;
        this.groups = new GroupInvariants(model, stores);
        this.schedules = new ScheduleInvariants(model, stores);
        views.put("", new ViewChecker(model.own, model, stores.apply(Optional.empty())));
    }

    /** The views that exist: the queue's own, then its groups by name. */
    List<Optional<GroupName>> views() {
        return model.views();
    }

    /** Whether the view exists: the queue's own always, a group from its creation to its deletion. */
    boolean exists(Optional<GroupName> view) {
        return model.view(view) != null;
    }

    /**
     * The checks of one view, for a call its store answered; a group that does not exist fails
     * {@link Invariant#GROUPS}, as its store should have refused the call.
     */
    ViewChecker view(Optional<GroupName> view) {
        ViewChecker checker = views.get(view.map(GroupName::value).orElse(""));
        if (checker == null) {
            throw GroupInvariants.answeredForMissing(view.get());
        }
        return checker;
    }

    /** The store {@code through} was configured: the queue's own sets every view, a group's that group alone. */
    void onConfigure(Optional<GroupName> through, QueueSettings requested) {
        view(through);
        groups.configured(through).forEach(view -> view(view).onConfigure(requested));
        groups.checkSettings(through, requested);
    }

    void onPublish(List<NewTask> batch, List<PublishReceipt> receipts, long now) {
        groups.onPublish(batch, receipts, now);
    }

    void onCreateGroup(GroupName group, boolean created, List<GroupName> listed) {
        groups.onCreateGroup(group, created, listed);
        if (created) {
            views.put(group.value(), new ViewChecker(model.view(Optional.of(group)), model,
                    stores.apply(Optional.of(group))));
        }
    }

    void onDeleteGroup(GroupName group, boolean deleted, List<GroupName> listed) {
        views.remove(group.value());
        groups.onDeleteGroup(group, deleted, listed);
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
        schedules.checkListed(stores.apply(Optional.empty()).schedules(), now);
    }
}
