package io.ordo.redis;

import io.ordo.domain.GroupName;
import io.ordo.domain.InvalidInputException;
import io.ordo.domain.QueueName;
import io.ordo.domain.Validate;
import io.ordo.ports.ConsumerGroups;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * A Redis queue's consumer groups (docs/groups.md): created, listed and deleted on the queue's own keys, a
 * backlog copied and a deletion done in bounded calls. {@link RedisTaskStore}'s {@link ConsumerGroups} role.
 */
final class RedisConsumerGroups {
    private final QueueName queue;
    private final QueueCall onQueue;
    /** The override clock's now, or empty: the scripts then read the server's TIME. */
    private final Supplier<String> now;

    RedisConsumerGroups(QueueName queue, QueueCall onQueue, Supplier<String> now) {
        this.queue = queue;
        this.onQueue = onQueue;
        this.now = now;
    }

    boolean create(GroupName group) {
        Validate.notNull("group", group);
        return create(group, "");
    }

    /** Creates the group, then copies the backlog of the group named, a bounded page per call. */
    boolean create(GroupName group, GroupName backlogOf) {
        Validate.notNull("group", group);
        Validate.notNull("backlogOf", backlogOf);
        if (backlogOf.equals(group)) {
            throw new InvalidInputException("backlogOf", "must name another group than the one created");
        }
        if (!create(group, backlogOf.value())) {
            return false;
        }
        String cursor = "0";
        do {
            List<Object> reply = onQueue.run(RedisScript.GROUP_COPY,
                    new Args().add(now.get()).add(group.value()).add(backlogOf.value()).add(cursor));
            cursor = Replies.text(reply, 0);
        } while (!cursor.equals("0"));
        return true;
    }

    private boolean create(GroupName group, String backlogOf) {
        while (true) {
            long reply = Replies.number(onQueue.run(RedisScript.GROUP_CREATE,
                    new Args().add(now.get()).add(group.value()).add(ConsumerGroups.MAX_GROUPS).add(backlogOf)), 0);
            if (reply == -3) {
                throw new InvalidInputException("backlogOf", "queue " + queue + " has no consumer group " + backlogOf);
            }
            if (reply == -1) {
                throw new InvalidInputException("group", "queue " + queue + " has " + ConsumerGroups.MAX_GROUPS
                        + " consumer groups, the most it may have");
            }
            if (reply != -2) {
                return reply == 1;
            }
            deleteKeys(group); // an earlier deletion of a group of that name stopped before its end
        }
    }

    List<GroupName> list() {
        List<Object> reply = onQueue.run(RedisScript.GROUPS, new Args().add(now.get()));
        List<GroupName> names = new ArrayList<>(reply.size());
        for (int i = 0; i < reply.size(); i++) {
            names.add(GroupName.of(Replies.text(reply, i)));
        }
        return names;
    }

    boolean delete(GroupName group) {
        Validate.notNull("group", group);
        return deleteKeys(group);
    }

    /** Deletes the group's keys a bounded chunk per call; whether the queue listed the group. */
    private boolean deleteKeys(GroupName group) {
        boolean listed = false;
        while (true) {
            List<Object> reply = onQueue.run(RedisScript.GROUP_DELETE, new Args().add(now.get()).add(group.value()));
            listed |= Replies.number(reply, 0) == 1;
            if (Replies.number(reply, 1) == 1) {
                return listed;
            }
        }
    }
}
