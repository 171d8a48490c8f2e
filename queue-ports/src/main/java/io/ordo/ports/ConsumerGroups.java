package io.ordo.ports;

import io.ordo.domain.GroupName;

import java.util.List;

/**
 * A queue's consumer groups (docs/groups.md): once a queue has one, every task published to it is
 * delivered once to every group it has at that moment, atomically with the publish, and each group keeps
 * its own state of each task (order, leases, attempts, delays, dead letters, pause, stats). A store of
 * the queue or of any of its groups answers for the whole queue (see {@link TaskStore} for errors).
 */
public interface ConsumerGroups extends QueueBound {
    /** Most groups a queue may have. */
    int MAX_GROUPS = 32;

    /**
     * Creates the group, which receives every task published from now on (none published before), with
     * the settings the queue has now; false, and nothing changes, when it exists already.
     */
    boolean createGroup(GroupName group);

    /**
     * Creates the group as {@link #createGroup(GroupName)} does and gives it the tasks waiting in the group
     * {@code backlogOf} (not those in flight there, nor its dead letters), in their places, their attempts
     * counted anew: a service brought up later starts where another one is. False, and nothing changes, when
     * the group exists; {@code backlogOf} must name another group of the queue (refused naming
     * {@code backlogOf}). On Redis the copy runs in bounded steps after the group is created.
     */
    boolean createGroup(GroupName group, GroupName backlogOf);

    /** The queue's groups, by name. */
    List<GroupName> groups();

    /**
     * Deletes the group with every task state, lease, consumer, dead letter and counter it holds; false when
     * the queue has no such group. Its consumers' later calls fail as calls on a group that does not exist.
     */
    boolean deleteGroup(GroupName group);
}
