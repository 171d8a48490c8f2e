package io.ordo.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@link io.ordo.runtime.worker.TaskHandler} bean as the handler of a queue: the starter runs
 * one {@link io.ordo.runtime.worker.Worker} for it, started with the application context and stopped
 * gracefully when the context closes. On a class, or on a {@code @Bean} method that returns a handler.
 * The payload type is the handler's type argument ({@code TaskHandler<Deposit>}), or {@link #payloadType()}.
 *
 * <pre>{@code
 * @Component
 * @OrdoWorker(queue = "deposits", concurrency = 8)
 * class DepositHandler implements TaskHandler<Deposit> {
 *     public Outcome handle(Deposit deposit, TaskContext context) { ... }
 * }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface OrdoWorker {
    /** The queue the worker takes tasks from. */
    String queue();

    /**
     * A consumer group of the queue to work on (docs/groups.md); empty: the queue's own view. The group must
     * exist: create it once, as a deployment step ({@code ordo group create}) or with {@code TaskStore.createGroup}.
     */
    String group() default "";

    /** Handler threads; 0 takes {@code ordo.worker.concurrency}. */
    int concurrency() default 0;

    /** The payload type when the handler's type argument does not say it; {@code Void}: from the type argument. */
    Class<?> payloadType() default Void.class;
}
