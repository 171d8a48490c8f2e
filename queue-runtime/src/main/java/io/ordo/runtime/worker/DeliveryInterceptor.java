package io.ordo.runtime.worker;

import io.ordo.domain.Validate;

import java.util.List;

/**
 * Wraps every handler run of a {@link Worker}: it sees the delivery before (its {@link TaskContext}:
 * task, attempt, headers, and {@link TaskContext#reclaimCause()} when the task came back after its last
 * holder died or timed out) and the {@link HandlerResult} after (the outcome, and the exception when the
 * handler threw). Registered with {@link Worker.Builder#interceptor}; tracing is one
 * ({@code ordo-tracing-otel}).
 *
 * <pre>{@code
 * DeliveryInterceptor timing = (context, next) -> {
 *     long start = System.nanoTime();
 *     HandlerResult result = next.proceed();
 *     log.info("{} attempt {} took {} ns: {}", context.id(), context.attempt(), System.nanoTime() - start, result.outcome());
 *     return result;
 * };
 * }</pre>
 *
 * It runs on the handler thread, so whatever it makes current there (a span, say) is current while the
 * handler runs. {@code next.proceed()} decodes the payload and runs the handler; it never throws, since a
 * handler's exception is already a result: a retry after the worker's backoff. An interceptor calls it
 * once and returns its result (or another); one that throws, or returns nothing, fails the attempt like
 * a handler that throws.
 */
@FunctionalInterface
public interface DeliveryInterceptor {
    HandlerResult intercept(TaskContext context, Next next);

    /** The rest of the run: the next interceptor, then decoding and the handler. */
    @FunctionalInterface
    interface Next {
        HandlerResult proceed();
    }

    /** Runs the handler as it is. */
    DeliveryInterceptor NONE = (context, next) -> next.proceed();

    /** The interceptors one inside the other: the first sees the delivery first and the result last. */
    static DeliveryInterceptor chain(List<DeliveryInterceptor> interceptors) {
        Validate.notNull("interceptors", interceptors);
        DeliveryInterceptor chained = NONE;
        for (int i = interceptors.size() - 1; i >= 0; i--) {
            DeliveryInterceptor outer = Validate.notNull("interceptors[" + i + "]", interceptors.get(i));
            DeliveryInterceptor inner = chained;
            chained = inner == NONE ? outer
                    : (context, next) -> outer.intercept(context, () -> inner.intercept(context, next));
        }
        return chained;
    }
}
