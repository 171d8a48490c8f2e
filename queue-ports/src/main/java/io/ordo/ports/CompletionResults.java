package io.ordo.ports;

import io.ordo.domain.InvalidInputException;
import io.ordo.domain.PublishRules;
import io.ordo.domain.TaskId;
import io.ordo.domain.Validate;

import java.util.LinkedHashMap;
import java.util.Map;

/** The results a {@link TaskConsuming#complete} names, checked once for every store. */
public final class CompletionResults {
    private CompletionResults() {
    }

    /**
     * The results in the order given: not null, at most a batch, no null id or result, none over
     * {@code maxResultBytes} (field {@code results[id]}).
     */
    public static Map<TaskId, byte[]> checked(Map<TaskId, byte[]> results, int maxResultBytes) {
        Validate.notNull("results", results);
        if (results.size() > PublishRules.MAX_BATCH) {
            throw new InvalidInputException("results", "at most " + PublishRules.MAX_BATCH + " entries, was "
                    + results.size());
        }
        Map<TaskId, byte[]> copy = new LinkedHashMap<>();
        results.forEach((id, result) -> {
            Validate.notNull("results.id", id);
            String field = "results[" + id.value() + "]";
            Validate.notNull(field, result);
            if (result.length > maxResultBytes) {
                throw new InvalidInputException(field, "is " + result.length + " bytes, the queue keeps results of at most "
                        + maxResultBytes + " (maxResultBytes)");
            }
            copy.put(id, result.clone());
        });
        return copy;
    }
}
