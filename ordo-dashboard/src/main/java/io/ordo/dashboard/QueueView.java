package io.ordo.dashboard;

import io.ordo.domain.GroupName;
import io.ordo.domain.QueueName;

import java.util.Objects;
import java.util.Optional;

/**
 * What a queue page shows: the queue's own view, or one of its consumer groups (docs/groups.md), each
 * with its own statistics, inspection, dead letters, settings and pause. The pacers keep one reading per view.
 */
record QueueView(QueueName queue, Optional<GroupName> group) {
    QueueView {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(group, "group");
    }

    /** The queue's own view. */
    static QueueView of(QueueName queue) {
        return new QueueView(queue, Optional.empty());
    }

    /** One consumer group of the queue. */
    static QueueView of(QueueName queue, GroupName group) {
        return new QueueView(queue, Optional.of(group));
    }

    @Override
    public String toString() {
        return group.map(name -> "group " + name + " of queue " + queue).orElse("queue " + queue);
    }
}
