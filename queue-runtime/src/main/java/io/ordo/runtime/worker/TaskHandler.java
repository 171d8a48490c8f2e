package io.ordo.runtime.worker;

/**
 * Processes one task's payload. Returning {@link Outcome#success()} acks the task; throwing retries
 * it with the worker's backoff, or the task's own if it was published with one (a dead letter once the
 * queue's {@code maxAttempts}, or the task's own limit, is used up); the
 * other outcomes ask for a retry after a given delay, a dead letter at once, or a rate-limit pause.
 *
 * <pre>{@code
 * TaskHandler<Deposit> deposits = (deposit, context) -> {
 *     if (bank.isThrottling()) {
 *         return Outcome.rateLimited(Duration.ofSeconds(30), "bank API throttled");
 *     }
 *     bank.credit(deposit.account(), deposit.cents());
 *     return Outcome.success();
 * };
 * }</pre>
 *
 * Handlers of regular tasks run concurrently; the tasks of an ordered batch are handed to one
 * handler call after the other, on one thread, in order.
 *
 * @param <T> the payload type, decoded with the worker's codec
 */
@FunctionalInterface
public interface TaskHandler<T> {
    /** Handles one delivery of a task; {@code context} says which task and which attempt. */
    Outcome handle(T payload, TaskContext context) throws Exception;
}
