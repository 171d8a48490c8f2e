package io.ordo.redis;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.DeadLetter;
import io.ordo.domain.Partition;
import io.ordo.domain.Task;
import io.ordo.ports.CompletedPage;
import io.ordo.ports.CompletedTask;
import io.ordo.ports.DeadLetterMatches;
import io.ordo.ports.InFlightPage;
import io.ordo.ports.LeaseStatus;
import io.ordo.ports.ListingCursor;
import io.ordo.ports.PartitionBlock;
import io.ordo.ports.PartitionLock;
import io.ordo.ports.PartitionTasks;
import io.ordo.ports.TaskPage;
import io.ordo.ports.TaskSnapshot;
import io.ordo.redis.RedisScript.CompletedTasksReply;
import io.ordo.redis.RedisScript.HeldReply;
import io.ordo.redis.RedisScript.InFlightReply;
import io.ordo.redis.RedisScript.PartitionTasksReply;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The replies of the functions that read tasks (get, dead letters and the task lists, TaskListing) as the
 * port's values: one decoding for both Redis clients.
 */
final class TaskListReplies {
    private TaskListReplies() {
    }

    /** A held task from its id, its record and the {@link HeldReply} at {@code from} of the reply. */
    static TaskSnapshot held(byte[] id, byte[] record, List<Object> reply, int from) {
        ConsumerId holder = ConsumerId.of(Replies.text(reply, from + HeldReply.HOLDER));
        long leasedAt = Replies.number(reply, from + HeldReply.LEASED_AT);
        TaskRecords.Stored stored = TaskRecords.held(id, record, holder, leasedAt);
        long deadline = Replies.number(reply, from + HeldReply.DEADLINE);
        ProgressRecords.Reported progress = ProgressRecords.decode(Replies.bytes(reply, from + HeldReply.PROGRESS));
        return TaskSnapshot.held(stored.task(), holder, new LeaseStatus(Instant.ofEpochMilli(leasedAt),
                deadline < 0 ? Optional.empty() : Optional.of(Instant.ofEpochMilli(deadline)),
                Replies.number(reply, from + HeldReply.CANCEL_REQUESTED) == 1,
                Optional.ofNullable(progress).map(ProgressRecords.Reported::progress),
                Optional.ofNullable(progress).map(ProgressRecords.Reported::at)));
    }

    /** A dead letter from its id and record. */
    static DeadLetter deadLetter(byte[] id, byte[] record) {
        TaskRecords.Stored stored = TaskRecords.decode(id, record);
        return new DeadLetter(stored.task(), stored.task().lastError(), stored.at());
    }

    /** The tasks of (id, record) pairs from {@code from} to the end of the reply. */
    static List<Task> tasks(List<Object> reply, int from) {
        List<Task> tasks = new ArrayList<>((reply.size() - from) / 2);
        for (int i = from; i + 1 < reply.size(); i += 2) {
            tasks.add(TaskRecords.decode(Replies.bytes(reply, i), Replies.bytes(reply, i + 1)).task());
        }
        return tasks;
    }

    static PartitionTasks partitionTasks(Partition partition, int offset, List<Object> reply) {
        long now = Replies.number(reply, PartitionTasksReply.NOW);
        String holder = Replies.text(reply, PartitionTasksReply.HOLDER);
        long inFlight = Replies.number(reply, PartitionTasksReply.IN_FLIGHT);
        Optional<PartitionLock> lock = holder.isEmpty() ? Optional.empty()
                : Optional.of(new PartitionLock(partition, ConsumerId.of(holder),
                Instant.ofEpochMilli(Replies.number(reply, PartitionTasksReply.SINCE)), inFlight));
        long blockedUntil = Replies.number(reply, PartitionTasksReply.BLOCKED_UNTIL);
        byte[] headId = Replies.bytes(reply, PartitionTasksReply.HEAD_ID);
        Optional<Task> head = headId.length == 0 ? Optional.empty()
                : Optional.of(TaskRecords.decode(headId, Replies.bytes(reply, PartitionTasksReply.HEAD_RECORD)).task());
        return new PartitionTasks(partition, Instant.ofEpochMilli(now), Replies.number(reply, PartitionTasksReply.WAITING),
                inFlight < 0 ? OptionalLong.empty() : OptionalLong.of(inFlight), lock,
                blockedUntil < 0 ? Optional.empty()
                        : Optional.of(new PartitionBlock(partition, Instant.ofEpochMilli(blockedUntil))),
                head, tasks(reply, PartitionTasksReply.FIRST_TASK), Replies.number(reply, PartitionTasksReply.TOTAL), offset);
    }

    static TaskPage delayedTasks(int offset, List<Object> reply) {
        return new TaskPage(tasks(reply, 2), Replies.number(reply, 1), offset, Instant.ofEpochMilli(Replies.number(reply, 0)));
    }

    static CompletedPage completedTasks(int offset, List<Object> reply) {
        List<CompletedTask> tasks = new ArrayList<>();
        for (int i = CompletedTasksReply.FIRST_TASK; i + CompletedTasksReply.TASK_WIDTH <= reply.size();
             i += CompletedTasksReply.TASK_WIDTH) {
            TaskRecords.Stored stored = TaskRecords.decode(Replies.bytes(reply, i), Replies.bytes(reply, i + 1));
            tasks.add(new CompletedTask(stored.task(), Instant.ofEpochMilli(stored.at()),
                    Instant.ofEpochMilli(Replies.number(reply, i + 2)), Replies.integer(reply, i + 3)));
        }
        return new CompletedPage(tasks, Replies.number(reply, CompletedTasksReply.TOTAL), offset,
                Duration.ofMillis(Replies.number(reply, CompletedTasksReply.RETENTION)),
                Instant.ofEpochMilli(Replies.number(reply, CompletedTasksReply.NOW)));
    }

    static InFlightPage inFlightTasks(List<Object> reply) {
        List<TaskSnapshot> tasks = new ArrayList<>();
        for (int i = InFlightReply.FIRST_TASK; i < reply.size(); i += InFlightReply.TASK_WIDTH) {
            tasks.add(held(Replies.bytes(reply, i), Replies.bytes(reply, i + 1), reply, i + 2));
        }
        String nextHolder = Replies.text(reply, InFlightReply.NEXT_HOLDER);
        Optional<String> next = nextHolder.isEmpty() ? Optional.empty()
                : Optional.of(ListingCursor.of(nextHolder, Replies.text(reply, InFlightReply.NEXT_CURSOR),
                Long.toString(Replies.number(reply, InFlightReply.NEXT_SKIP))));
        return new InFlightPage(tasks, next, Instant.ofEpochMilli(Replies.number(reply, InFlightReply.NOW)));
    }

    static DeadLetterMatches deadLetterMatches(List<Object> reply) {
        List<DeadLetter> matches = new ArrayList<>();
        for (int i = 3; i + 1 < reply.size(); i += 2) {
            matches.add(deadLetter(Replies.bytes(reply, i), Replies.bytes(reply, i + 1)));
        }
        String after = Replies.text(reply, 2);
        return new DeadLetterMatches(matches, Replies.integer(reply, 1),
                after.isEmpty() ? Optional.empty() : Optional.of(ListingCursor.of(after)),
                Instant.ofEpochMilli(Replies.number(reply, 0)));
    }
}
