package io.ordo.ports;

import io.ordo.domain.InvalidInputException;
import io.ordo.domain.Progress;
import io.ordo.domain.PublishRules;
import io.ordo.domain.TaskId;
import io.ordo.domain.Validate;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** The arguments of a heartbeat's progress and of a lease extension, checked once for every store. */
public final class LeaseControls {
    private LeaseControls() {
    }

    /** A heartbeat's progress reports: not null, at most a batch, no null id or report. */
    public static Map<TaskId, Progress> progress(Map<TaskId, Progress> progress) {
        Validate.notNull("progress", progress);
        if (progress.size() > PublishRules.MAX_BATCH) {
            throw new InvalidInputException("progress", "at most " + PublishRules.MAX_BATCH + " entries, was "
                    + progress.size());
        }
        Map<TaskId, Progress> copy = new LinkedHashMap<>();
        progress.forEach((id, report) -> {
            Validate.notNull("progress.id", id);
            copy.put(id, Validate.notNull("progress[" + id.value() + "]", report));
        });
        return copy;
    }

    /** A lease extension: {@link TaskConsuming#MIN_LEASE_EXTENSION}..{@link TaskConsuming#MAX_LEASE_EXTENSION}, in ms. */
    public static long extensionMillis(Duration extension) {
        Validate.duration("extension", extension, TaskConsuming.MAX_LEASE_EXTENSION);
        if (extension.compareTo(TaskConsuming.MIN_LEASE_EXTENSION) < 0) {
            throw new InvalidInputException("extension", "must be at least "
                    + TaskConsuming.MIN_LEASE_EXTENSION.toMillis() + " ms, was " + extension.toMillis() + " ms");
        }
        return extension.toMillis();
    }
}
