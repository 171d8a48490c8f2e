package io.ordo.tracing.otel;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.ordo.domain.Validate;
import io.ordo.runtime.PublishInterceptor;
import io.ordo.runtime.worker.DeliveryInterceptor;

/**
 * Traces Ordo's publishers and workers with OpenTelemetry (docs/tracing.md): each published task gets a
 * PRODUCER span, {@code publish <queue>}, whose W3C trace context ({@code traceparent},
 * {@code tracestate}) travels in the task's headers; each delivery runs its handler in a CONSUMER span,
 * {@code process <queue>}. The first delivery's span is a child of the publish span; a retry, or a
 * task back after its holder died or timed out, starts a trace of its own linked to it.
 *
 * <pre>{@code
 * OrdoTracing tracing = OrdoTracing.create(openTelemetry);
 * Publisher<Deposit> deposits = new Publisher<>(store, codec, List.of(tracing.publishInterceptor()));
 * Worker<Deposit> worker = Worker.builder(store, Deposit.class, handler)
 *         .interceptor(tracing.deliveryInterceptor())
 *         .build();
 * }</pre>
 */
public final class OrdoTracing {
    /** The instrumentation scope the spans are recorded under. */
    public static final String INSTRUMENTATION_NAME = "io.ordo.tracing.otel";

    private final Tracer tracer;
    private final TextMapPropagator propagator = W3CTraceContextPropagator.getInstance();

    private OrdoTracing(Tracer tracer) {
        this.tracer = tracer;
    }

    /** Spans through {@code openTelemetry}'s tracer provider; the context travels as W3C trace context whatever its propagators. */
    public static OrdoTracing create(OpenTelemetry openTelemetry) {
        Validate.notNull("openTelemetry", openTelemetry);
        return new OrdoTracing(openTelemetry.getTracer(INSTRUMENTATION_NAME));
    }

    /** For {@code new Publisher<>(store, codec, List.of(...))} or {@code RuntimeModule}'s set binding. */
    public PublishInterceptor publishInterceptor() {
        return new PublishSpans(tracer, propagator);
    }

    /** For {@code Worker.builder(...).interceptor(...)} or {@code RuntimeModule}'s set binding. */
    public DeliveryInterceptor deliveryInterceptor() {
        return new ProcessSpans(tracer, propagator);
    }
}
