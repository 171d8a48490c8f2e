package io.ordo.redis;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Progress;
import io.ordo.domain.TaskId;
import io.ordo.domain.TaskState;
import io.ordo.domain.Validate;
import io.ordo.ports.CancelOutcome;
import io.ordo.ports.Completion;
import io.ordo.ports.ConsumerHeartbeat;
import io.ordo.ports.ExtendOutcome;
import io.ordo.ports.LeaseControls;
import io.ordo.ports.TaskSnapshot;
import io.ordo.redis.RedisScript.GetReply;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

import static io.ordo.redis.IdCalls.distinct;
import static io.ordo.redis.IdCalls.outcomes;
import static io.ordo.redis.IdCalls.taskIds;
import static io.ordo.redis.IdCalls.withIds;

/**
 * A Redis queue's task control (docs/task-control.md): a holder's heartbeat with its progress and the
 * cancellations asked of it, extending leases, cancelling tasks wherever they are, and what {@code get} shows of
 * a task. One call of its script each.
 */
final class RedisTaskControl {
    /** Calls a function on the store's keys. */
    private final QueueCall onKeys;
    /** The override clock's now, or empty: the scripts then read the server's TIME. */
    private final Supplier<String> now;

    RedisTaskControl(QueueCall onKeys, Supplier<String> now) {
        this.onKeys = onKeys;
        this.now = now;
    }

    Set<TaskId> heartbeat(ConsumerId consumer, Duration ttl, Map<TaskId, Progress> progress) {
        ConsumerHeartbeat beat = new ConsumerHeartbeat(consumer, ttl);
        Map<TaskId, Progress> reports = LeaseControls.progress(progress);
        Args args = new Args().add(now.get()).add(beat.consumer().value()).add(beat.ttl().toMillis());
        reports.forEach((id, report) -> args.add(id.value()).add(ProgressRecords.encode(report)));
        List<Object> reply = onKeys.run(RedisScript.HEARTBEAT, args);
        return taskIds(reply, 0, reply.size());
    }

    Map<TaskId, ExtendOutcome> extendLease(ConsumerId consumer, Collection<TaskId> ids, Duration extension) {
        Validate.notNull("consumer", consumer);
        List<TaskId> distinct = distinct(ids);
        long millis = LeaseControls.extensionMillis(extension);
        List<Object> reply = onKeys.run(RedisScript.EXTEND_LEASE,
                withIds(new Args().add(now.get()).add(consumer.value()).add(millis), distinct));
        return outcomes(distinct, reply, RedisScript.EXTEND_LEASE, ExtendOutcome.class);
    }

    Map<TaskId, CancelOutcome> cancel(Collection<TaskId> ids) {
        List<TaskId> distinct = distinct(ids);
        List<Object> reply = onKeys.run(RedisScript.CANCEL, withIds(new Args().add(now.get()), distinct));
        return outcomes(distinct, reply, RedisScript.CANCEL, CancelOutcome.class);
    }

    Optional<TaskSnapshot> get(TaskId id) {
        Validate.notNull("id", id);
        List<Object> reply = onKeys.run(RedisScript.GET, new Args().add(now.get()).add(id.value()));
        if (reply.size() <= GetReply.RECORD || reply.get(GetReply.RECORD) == null) {
            return Optional.empty();
        }
        long now = Replies.number(reply, GetReply.NOW);
        byte[] idBytes = Utf8.encode(id.value());
        TaskRecords.Stored stored = TaskRecords.decode(idBytes, Replies.bytes(reply, GetReply.RECORD));
        if (stored.state() == TaskRecords.STATE_COMPLETED) {
            return Optional.of(TaskSnapshot.completed(stored.task(), new Completion(Instant.ofEpochMilli(stored.at()),
                    Instant.ofEpochMilli(Replies.number(reply, GetReply.KEPT_UNTIL)), Replies.bytes(reply, GetReply.RESULT))));
        }
        if (reply.size() > GetReply.HOLDER) {
            return Optional.of(TaskListReplies.held(idBytes, Replies.bytes(reply, GetReply.RECORD), reply, GetReply.HOLDER));
        }
        TaskState state = stored.state() == TaskRecords.STATE_DEAD ? TaskState.DEAD
                : stored.task().isReadyAt(now) ? TaskState.PENDING : TaskState.DELAYED;
        return Optional.of(TaskSnapshot.unheld(stored.task(), state));
    }
}
