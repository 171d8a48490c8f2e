package io.ordo.simulation;

import io.ordo.domain.GroupName;
import io.ordo.domain.NewTask;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.TaskId;
import io.ordo.ports.PublishOutcome;
import io.ordo.ports.ScheduleEntry;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The queue as the checker follows it (docs/groups.md): its own view's {@link QueueModel}, one per consumer
 * group by name (each a queue of its own), and what spans them: the creation order that stands in for the
 * queue's one {@code seq}, the seqs seen, and the schedules. A publish is the queue's: an id any view holds
 * or remembers is a duplicate, and a new task reaches every group, or the own view while there is none.
 */
final class ViewsModel {
    final QueueModel own = new QueueModel(QueueSettings.DEFAULTS);
    /** The groups that exist, by name; a deleted group's model is dropped whole. */
    final TreeMap<String, QueueModel> groups = new TreeMap<>();
    /** The seq the store showed for each creation order seen so far, in any view. */
    final TreeMap<Long, Long> seqByCreated = new TreeMap<>();
    /** The queue's schedules by id, with the anchor and last slot the rules give them. */
    final TreeMap<String, ScheduleEntry> schedules = new TreeMap<>();
    /** Deleted groups, for the ids they acked: the queue remembers them for the group's dedup window. */
    final List<QueueModel> deleted = new ArrayList<>();
    /** How many tasks the queue created: one count over every view, as seq is one counter. */
    long created;

    /** The view's model, or null for a group that does not exist. */
    QueueModel view(Optional<GroupName> view) {
        return view.isEmpty() ? own : groups.get(view.get().value());
    }

    /** The views that exist: the queue's own, then its groups by name. */
    List<Optional<GroupName>> views() {
        List<Optional<GroupName>> views = new ArrayList<>(groups.size() + 1);
        views.add(Optional.empty());
        groups.keySet().forEach(name -> views.add(Optional.of(GroupName.of(name))));
        return views;
    }

    /** Where a publish goes: every group, or the own view while there is none. */
    List<Optional<GroupName>> publishTargets() {
        return groups.isEmpty() ? List.of(Optional.empty()) : views().subList(1, groups.size() + 1);
    }

    /** The outcome the rules require of a publish of {@code id}, over every view, or null where they allow either. */
    PublishOutcome expectedPublish(TaskId id, long now) {
        boolean open = false;
        for (Optional<GroupName> view : views()) {
            PublishOutcome outcome = view(view).expectedPublish(id, now);
            if (outcome == PublishOutcome.DUPLICATE) {
                return PublishOutcome.DUPLICATE;
            }
            open |= outcome == null;
        }
        for (QueueModel group : deleted) {
            PublishOutcome outcome = group.rememberedAck(id, now);
            if (outcome == PublishOutcome.DUPLICATE) {
                return PublishOutcome.DUPLICATE;
            }
            open |= outcome == null;
        }
        return open ? null : PublishOutcome.CREATED;
    }

    /** The publish created the task: the queue's next one, in every target view. */
    void create(NewTask request, long now) {
        long order = ++created;
        for (Optional<GroupName> target : publishTargets()) {
            view(target).create(request, order, now);
        }
    }

    /** A publish's step begins in every view it reaches. */
    void beginPublish() {
        publishTargets().forEach(target -> view(target).begin());
    }

    void endPublish() {
        publishTargets().forEach(target -> view(target).end());
    }
}
