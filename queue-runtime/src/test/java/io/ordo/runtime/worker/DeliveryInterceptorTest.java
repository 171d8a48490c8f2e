package io.ordo.runtime.worker;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.ReclaimCause;
import io.ordo.domain.TaskId;
import io.ordo.domain.TaskState;
import io.ordo.ports.ReclaimReport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/** Every handler run passes through the worker's delivery interceptors, which see the delivery before and the result after. */
class DeliveryInterceptorTest {
    private final WorkerHarness harness = new WorkerHarness();
    private final List<String> seen = new CopyOnWriteArrayList<>();
    private final List<HandlerResult> results = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void an_interceptor_sees_the_delivery_before_and_the_outcome_after_on_the_handler_thread() {
        ThreadLocal<String> current = new ThreadLocal<>();
        harness.interceptors.add((context, next) -> {
            seen.add("before " + context.queue() + " " + context.id() + " attempt " + context.attempt() + " "
                    + context.headers() + " " + context.reclaimCause().isPresent());
            current.set("span of " + context.id());
            try {
                HandlerResult result = next.proceed();
                results.add(result);
                seen.add("after " + context.id());
                return result;
            } finally {
                current.remove();
            }
        });
        harness.publisher.publish(io.ordo.runtime.Publication.of(Partition.regular("p"), "t1").withId("t1")
                .withHeader("tenant", "acme"));

        harness.start((payload, context) -> {
            seen.add("handler sees " + current.get());
            return Outcome.success();
        });

        Eventually.until("t1 acked", () -> harness.isGone("t1"));
        assertThat(seen).containsExactly("before work t1 attempt 1 {tenant=acme} false", "handler sees span of t1",
                "after t1");
        assertThat(results).containsExactly(HandlerResult.returned(Outcome.success()));
    }

    @Test
    void an_exception_reaches_the_interceptor_with_the_retry_the_worker_settles_it_with() {
        harness.interceptors.add(recording());
        harness.publish(Partition.regular("p"), "t1");
        IllegalStateException boom = new IllegalStateException("boom");

        harness.start((payload, context) -> {
            throw boom;
        });

        Eventually.until("t1 retried", this::t1Retried);
        assertThat(results).hasSize(1);
        assertThat(results.get(0).error()).isSameAs(boom);
        assertThat(results.get(0).outcome()).isInstanceOfSatisfying(Outcome.RetryAfter.class,
                retry -> assertThat(retry.reason()).isEqualTo("java.lang.IllegalStateException: boom"));
    }

    @Test
    void an_undecodable_payload_reaches_the_interceptor_as_an_error_and_a_dead_letter() {
        harness.interceptors.add(recording());
        harness.store.publish(List.of(NewTask.builder(Partition.regular("p"), "{\"not\":\"a string\"}".getBytes(UTF_8))
                .id("poison").build()));

        harness.start((payload, context) -> Outcome.success());

        Eventually.until("poison dead-lettered", () -> harness.store.get(TaskId.of("poison"))
                .filter(task -> task.state() == TaskState.DEAD).isPresent());
        assertThat(results).hasSize(1);
        assertThat(results.get(0).errorIfAny()).isPresent();
        assertThat(results.get(0).outcome()).isInstanceOf(Outcome.Fail.class);
    }

    @Test
    void a_task_back_after_its_holder_died_tells_the_interceptor_why() {
        harness.interceptors.add((context, next) -> {
            seen.add(context.id() + " attempt " + context.attempt() + " " + context.reclaimCause());
            return next.proceed();
        });
        harness.publish(Partition.regular("p"), "t1");
        assertThat(harness.store.consume(ConsumerId.of("dies"), 1, java.time.Duration.ZERO)).hasSize(1);
        harness.clock.advance(harness.store.settings().heartbeatTtl().plusSeconds(1));
        ReclaimReport report = harness.store.reclaim();
        assertThat(report.returned()).isEqualTo(1);

        harness.start((payload, context) -> Outcome.success());

        Eventually.until("t1 acked", () -> harness.isGone("t1"));
        assertThat(seen).containsExactly("t1 attempt 2 " + Optional.of(ReclaimCause.HOLDER_STOPPED_HEARTBEATING));
    }

    @Test
    void interceptors_wrap_one_another_the_first_added_outermost() {
        harness.interceptors.add(named("outer"));
        harness.interceptors.add(named("inner"));
        harness.publish(Partition.regular("p"), "t1");

        harness.start((payload, context) -> {
            seen.add("handler");
            return Outcome.success();
        });

        Eventually.until("t1 acked", () -> harness.isGone("t1"));
        assertThat(seen).containsExactly("outer before", "inner before", "handler", "inner after", "outer after");
    }

    @Test
    void an_interceptor_that_throws_fails_the_attempt_and_the_task_comes_back() {
        harness.interceptors.add((context, next) -> {
            next.proceed();
            throw new IllegalStateException("interceptor broke");
        });
        harness.publish(Partition.regular("p"), "t1");

        harness.start((payload, context) -> Outcome.success());

        Eventually.until("t1 retried", this::t1Retried);
        assertThat(harness.get("t1").task().lastError()).isEqualTo("java.lang.IllegalStateException: interceptor broke");
    }

    @Test
    void an_interceptor_that_returns_nothing_fails_the_attempt() {
        harness.interceptors.add((context, next) -> null);
        harness.publish(Partition.regular("p"), "t1");

        harness.start((payload, context) -> Outcome.success());

        Eventually.until("t1 retried", this::t1Retried);
        assertThat(harness.get("t1").task().lastError()).contains("a delivery interceptor returned no result");
    }

    @Test
    void the_builder_refuses_a_null_interceptor_naming_it() {
        Worker.Builder<String> builder = Worker.builder(harness.store, String.class, (payload, context) -> Outcome.success());

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> builder.interceptor(null))
                .isInstanceOf(io.ordo.domain.InvalidInputException.class).hasMessageContaining("interceptor");
    }

    /** Back in its partition after a failed attempt (a task is waiting before its first attempt too). */
    private boolean t1Retried() {
        return harness.isWaiting("t1") && harness.get("t1").task().lastError() != null;
    }

    private DeliveryInterceptor recording() {
        return (context, next) -> {
            HandlerResult result = next.proceed();
            results.add(result);
            return result;
        };
    }

    private DeliveryInterceptor named(String name) {
        return (context, next) -> {
            seen.add(name + " before");
            HandlerResult result = next.proceed();
            seen.add(name + " after");
            return result;
        };
    }
}
