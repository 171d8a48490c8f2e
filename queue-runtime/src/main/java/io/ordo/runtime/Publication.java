package io.ordo.runtime;

import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.Priority;
import io.ordo.domain.TaskId;
import io.ordo.domain.Validate;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A typed payload on its way into a partition, with the id, priority, delay (or instant to run at) and
 * headers it will be published with. The id is fixed when the publication is made, so a caller can retry a publish
 * of the same publication and get {@code DUPLICATE} instead of a second task.
 *
 * <pre>{@code
 * Publication.of(Partition.ordered("account-42"), new Deposit(100))
 *         .withId("deposit-7")
 *         .withPriority(5)
 *         .withDelay(Duration.ofSeconds(30));
 * }</pre>
 */
public record Publication<T>(TaskId id, Partition partition, T payload, Priority priority, Duration delay,
                             Map<String, String> headers, Instant runAt) {

    public Publication {
        Validate.notNull("id", id);
        Validate.notNull("partition", partition);
        Validate.notNull("payload", payload);
        Validate.notNull("priority", priority);
        Validate.duration("delay", delay, NewTask.MAX_DELAY);
        Validate.notNull("headers", headers);
        headers.forEach((name, value) -> {
            Validate.notNull("headers.name", name);
            Validate.notNull("headers[" + name + "]", value);
        });
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        if (runAt != null && !delay.isZero()) {
            throw new io.ordo.domain.InvalidInputException("runAt", "give a delay or an instant to run at, not both");
        }
    }

    /** A publication due {@code delay} after its publish. */
    public Publication(TaskId id, Partition partition, T payload, Priority priority, Duration delay,
                       Map<String, String> headers) {
        this(id, partition, payload, priority, delay, headers, null);
    }

    /** A publication with a fresh random id, the default priority, no delay and no headers. */
    public static <T> Publication<T> of(Partition partition, T payload) {
        return new Publication<>(TaskId.random(), partition, payload, Priority.DEFAULT, Duration.ZERO, Map.of());
    }

    /** The caller's id: the idempotency key of the task. */
    public Publication<T> withId(String newId) {
        return withId(TaskId.of(newId));
    }

    public Publication<T> withId(TaskId newId) {
        return new Publication<>(newId, partition, payload, priority, delay, headers, runAt);
    }

    public Publication<T> withPriority(int newPriority) {
        return new Publication<>(id, partition, payload, Priority.of(newPriority), delay, headers, runAt);
    }

    /** Due this long after publish (instead of an instant to run at). */
    public Publication<T> withDelay(Duration newDelay) {
        return new Publication<>(id, partition, payload, priority, newDelay, headers, null);
    }

    /** Due at this instant by the store's clock, at once if it has passed (instead of a delay). */
    public Publication<T> withRunAt(Instant newRunAt) {
        return new Publication<>(id, partition, payload, priority, Duration.ZERO, headers,
                Validate.notNull("runAt", newRunAt));
    }

    public Publication<T> withHeader(String name, String value) {
        Map<String, String> newHeaders = new LinkedHashMap<>(headers);
        newHeaders.put(name, value);
        return new Publication<>(id, partition, payload, priority, delay, newHeaders, runAt);
    }
}
