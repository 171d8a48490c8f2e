package io.ordo.tracing.otel;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.ordo.domain.Labels;
import io.ordo.runtime.worker.DeliveryInterceptor;
import io.ordo.runtime.worker.HandlerResult;
import io.ordo.runtime.worker.Outcome;
import io.ordo.runtime.worker.TaskContext;

import java.util.Map;

/**
 * One CONSUMER span per delivery, current while the handler runs. The first delivery continues the
 * publish's trace; a retry or a task back after a reclaim starts a trace of its own, linked to the
 * publish span, so a task retried for hours does not stretch one trace over them.
 */
final class ProcessSpans implements DeliveryInterceptor {
    private static final TextMapGetter<Map<String, String>> HEADERS = (carrier, key) ->
            carrier == null ? null : carrier.get(key);

    private final Tracer tracer;
    private final TextMapPropagator propagator;

    ProcessSpans(Tracer tracer, TextMapPropagator propagator) {
        this.tracer = tracer;
        this.propagator = propagator;
    }

    @Override
    public HandlerResult intercept(TaskContext context, Next next) {
        Span span = start(context);
        Scope scope = span.makeCurrent();
        try {
            HandlerResult result = next.proceed();
            record(span, result);
            return result;
        } catch (RuntimeException | Error e) {
            span.recordException(e);
            span.setStatus(StatusCode.ERROR, e.getClass().getName());
            throw e;
        } finally {
            scope.close();
            span.end();
        }
    }

    private Span start(TaskContext context) {
        Context published = propagator.extract(Context.root(), context.headers(), HEADERS);
        SpanContext publish = Span.fromContext(published).getSpanContext();
        String queue = context.queue().value();
        SpanBuilder builder = tracer.spanBuilder("process " + queue)
                .setSpanKind(SpanKind.CONSUMER)
                .setAttribute(SpanAttributes.MESSAGING_SYSTEM, SpanAttributes.SYSTEM)
                .setAttribute(SpanAttributes.DESTINATION, queue)
                .setAttribute(SpanAttributes.OPERATION_TYPE, "process")
                .setAttribute(SpanAttributes.OPERATION_NAME, "process")
                .setAttribute(SpanAttributes.MESSAGE_ID, context.id().value())
                .setAttribute(SpanAttributes.CLIENT_ID, context.consumer().value())
                .setAttribute(SpanAttributes.PARTITION, context.partition().code())
                .setAttribute(SpanAttributes.ATTEMPT, (long) context.attempt());
        boolean firstDelivery = context.attempt() <= 1 && context.reclaimCause().isEmpty();
        if (publish.isValid() && firstDelivery) {
            builder.setParent(published);
        } else {
            builder.setNoParent();
            if (publish.isValid()) {
                builder.addLink(publish);
            }
        }
        Span span = builder.startSpan();
        context.reclaimCause().ifPresent(cause -> {
            AttributesBuilder event = Attributes.builder().put(SpanAttributes.RECLAIM_CAUSE, Labels.of(cause));
            context.lastError().ifPresent(error -> event.put(SpanAttributes.LAST_ERROR, error));
            span.addEvent(SpanAttributes.RECLAIMED_EVENT, event.build());
        });
        return span;
    }

    private static void record(Span span, HandlerResult result) {
        Outcome outcome = result.outcome();
        span.setAttribute(SpanAttributes.OUTCOME, label(outcome));
        result.errorIfAny().ifPresent(span::recordException);
        if (outcome instanceof Outcome.Fail fail) {
            span.setStatus(StatusCode.ERROR, String.valueOf(fail.reason()));
        } else if (outcome instanceof Outcome.RetryAfter retry) {
            span.setStatus(StatusCode.ERROR, String.valueOf(retry.reason()));
        }
    }

    /** The outcome as {@link SpanAttributes#OUTCOME} gives it. */
    static String label(Outcome outcome) {
        if (outcome instanceof Outcome.RetryAfter) {
            return "retry";
        }
        if (outcome instanceof Outcome.Fail) {
            return "fail";
        }
        if (outcome instanceof Outcome.RateLimited) {
            return "rate-limited";
        }
        return "success";
    }
}
