package io.ordo.domain;

import java.util.List;

/** What a publish batch must satisfy before anything of it is written. */
public final class PublishRules {
    public static final int MAX_BATCH = 10_000;

    private PublishRules() {
    }

    /** Checks the whole batch; the exception names the offending task, e.g. {@code tasks[3].payload}. */
    public static List<NewTask> validate(List<NewTask> tasks, QueueSettings settings) {
        Validate.notNull("tasks", tasks);
        if (tasks.isEmpty()) {
            throw new InvalidInputException("tasks", "a batch needs at least one task");
        }
        if (tasks.size() > MAX_BATCH) {
            throw new InvalidInputException("tasks", "a batch holds at most " + MAX_BATCH + " tasks, was " + tasks.size());
        }
        for (int i = 0; i < tasks.size(); i++) {
            NewTask task = tasks.get(i);
            if (task == null) {
                throw new InvalidInputException("tasks[" + i + "]", "must not be null");
            }
            if (task.payloadSize() > settings.maxPayloadBytes()) {
                throw new InvalidInputException("tasks[" + i + "].payload",
                        "is " + task.payloadSize() + " bytes, the queue allows at most " + settings.maxPayloadBytes());
            }
        }
        return List.copyOf(tasks);
    }

    /** Checks a list of ids for ack, reject, cancel and the like. */
    public static <T> List<T> ids(String field, java.util.Collection<T> ids) {
        Validate.notNull(field, ids);
        if (ids.size() > MAX_BATCH) {
            throw new InvalidInputException(field, "at most " + MAX_BATCH + " per call, was " + ids.size());
        }
        int i = 0;
        for (T id : ids) {
            if (id == null) {
                throw new InvalidInputException(field + "[" + i + "]", "must not be null");
            }
            i++;
        }
        return List.copyOf(ids);
    }
}
