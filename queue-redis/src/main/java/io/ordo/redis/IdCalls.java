package io.ordo.redis;

import io.ordo.domain.TaskId;
import io.ordo.ports.TaskIds;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the calls naming task ids share (ack, reject, cancel, redrive, …): the ids checked and made distinct,
 * added to the call's ARGV, its reply read as one outcome per id, in order, and the ids a reply lists.
 */
final class IdCalls {
    private IdCalls() {
    }

    static List<TaskId> distinct(Collection<TaskId> ids) {
        return TaskIds.distinct("ids", ids);
    }

    static Args withIds(Args args, List<TaskId> ids) {
        ids.forEach(id -> args.add(id.value()));
        return args;
    }

    static <O extends Enum<O>> Map<TaskId, O> outcomes(List<TaskId> ids, List<Object> reply,
                                                       RedisScript script, Class<O> type) {
        Map<TaskId, O> outcomes = new LinkedHashMap<>();
        for (int i = 0; i < ids.size(); i++) {
            outcomes.put(ids.get(i), script.outcome(type, Replies.number(reply, i)));
        }
        return outcomes;
    }

    /** One outcome per id given, then the tasks returned with their ordered batch (id, outcome), in key order. */
    static <O extends Enum<O>> Map<TaskId, O> outcomesWithBatch(List<TaskId> ids, List<Object> reply,
                                                                RedisScript script, Class<O> type) {
        Map<TaskId, O> outcomes = outcomes(ids, reply, script, type);
        for (int i = ids.size(); i < reply.size(); i += 2) {
            outcomes.put(TaskId.of(Replies.text(reply, i)), script.outcome(type, Replies.number(reply, i + 1)));
        }
        return outcomes;
    }

    /** The ids a reply lists from {@code from}, {@code count} of them, in order. */
    static Set<TaskId> taskIds(List<Object> reply, int from, int count) {
        Set<TaskId> ids = new LinkedHashSet<>();
        for (int i = from; i < from + count; i++) {
            ids.add(TaskId.of(Replies.text(reply, i)));
        }
        return ids;
    }
}
