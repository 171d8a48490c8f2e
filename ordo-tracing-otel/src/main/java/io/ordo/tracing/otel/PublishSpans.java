package io.ordo.tracing.otel;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.ordo.domain.Labels;
import io.ordo.domain.NewTask;
import io.ordo.domain.QueueName;
import io.ordo.ports.PublishReceipt;
import io.ordo.runtime.PublishInterceptor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One PRODUCER span per published task, a child of whatever span is current; its context goes into the
 * task's headers. A batch of one has its span current while the store is called.
 */
final class PublishSpans implements PublishInterceptor {
    private final Tracer tracer;
    private final TextMapPropagator propagator;

    PublishSpans(Tracer tracer, TextMapPropagator propagator) {
        this.tracer = tracer;
        this.propagator = propagator;
    }

    @Override
    public List<PublishReceipt> intercept(QueueName queue, List<NewTask> tasks, Next next) {
        Context parent = Context.current();
        List<Span> spans = new ArrayList<>(tasks.size());
        List<NewTask> carrying = new ArrayList<>(tasks.size());
        try {
            for (NewTask task : tasks) {
                Span span = start(queue, task, tasks.size(), parent);
                spans.add(span);
                Map<String, String> headers = new LinkedHashMap<>();
                propagator.inject(parent.with(span), headers, Map::put);
                carrying.add(headers.isEmpty() ? task : task.withHeaders(headers)); // empty without an SDK: nothing to carry
            }
            List<PublishReceipt> receipts;
            Scope scope = spans.size() == 1 ? spans.get(0).makeCurrent() : Scope.noop();
            try {
                receipts = next.publish(carrying);
            } finally {
                scope.close();
            }
            for (int i = 0; i < spans.size() && i < receipts.size(); i++) {
                spans.get(i).setAttribute(SpanAttributes.PUBLISH_OUTCOME, Labels.of(receipts.get(i).outcome()));
            }
            return receipts;
        } catch (RuntimeException | Error e) {
            for (Span span : spans) {
                span.recordException(e);
                span.setStatus(StatusCode.ERROR, e.getClass().getName());
            }
            throw e;
        } finally {
            spans.forEach(Span::end);
        }
    }

    private Span start(QueueName queue, NewTask task, int batchSize, Context parent) {
        SpanBuilder builder = tracer.spanBuilder("publish " + queue.value())
                .setParent(parent)
                .setSpanKind(SpanKind.PRODUCER)
                .setAttribute(SpanAttributes.MESSAGING_SYSTEM, SpanAttributes.SYSTEM)
                .setAttribute(SpanAttributes.DESTINATION, queue.value())
                .setAttribute(SpanAttributes.OPERATION_TYPE, "send")
                .setAttribute(SpanAttributes.OPERATION_NAME, "publish")
                .setAttribute(SpanAttributes.MESSAGE_ID, task.id().value())
                .setAttribute(SpanAttributes.PARTITION, task.partition().code());
        if (batchSize > 1) {
            builder.setAttribute(SpanAttributes.BATCH_COUNT, (long) batchSize);
        }
        return builder.startSpan();
    }
}
