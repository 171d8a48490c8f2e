package io.ordo.runtime;

import io.ordo.domain.NewTask;
import io.ordo.domain.QueueName;
import io.ordo.domain.Validate;
import io.ordo.ports.PublishReceipt;

import java.util.List;

/**
 * Sees every batch a {@link Publisher} publishes, around the store's call: it may add headers to the
 * tasks (a trace context, say) and see the receipts or the exception the store gave. Registered with
 * the publisher's constructor; tracing is one ({@code ordo-tracing-otel}).
 *
 * <pre>{@code
 * PublishInterceptor stamp = (queue, tasks, next) ->
 *         next.publish(tasks.stream().map(task -> task.withHeaders(Map.of("sent-by", "billing"))).toList());
 * }</pre>
 *
 * An interceptor passes the same tasks on, in the same order, with the same ids (headers aside, it
 * may change anything a task could have been published with); the publisher refuses a batch whose
 * ids changed. It runs on the publishing thread, so whatever it makes current there (a span, say)
 * is current while the store is called.
 */
@FunctionalInterface
public interface PublishInterceptor {
    /** Calls {@code next} once with the batch to publish and returns its receipts (or lets its exception through). */
    List<PublishReceipt> intercept(QueueName queue, List<NewTask> tasks, Next next);

    /** The rest of the publish: the next interceptor, then the store. */
    @FunctionalInterface
    interface Next {
        List<PublishReceipt> publish(List<NewTask> tasks);
    }

    /** Publishes as it is given. */
    PublishInterceptor NONE = (queue, tasks, next) -> next.publish(tasks);

    /** The interceptors one inside the other: the first sees the batch first and the receipts last. */
    static PublishInterceptor chain(List<PublishInterceptor> interceptors) {
        Validate.notNull("interceptors", interceptors);
        PublishInterceptor chained = NONE;
        for (int i = interceptors.size() - 1; i >= 0; i--) {
            PublishInterceptor outer = Validate.notNull("interceptors[" + i + "]", interceptors.get(i));
            PublishInterceptor inner = chained;
            chained = inner == NONE ? outer
                    : (queue, tasks, next) -> outer.intercept(queue, tasks, batch -> inner.intercept(queue, batch, next));
        }
        return chained;
    }
}
