package io.ordo.tracing.otel;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.ordo.domain.ConsumerId;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.RetryPolicy;
import io.ordo.domain.TaskId;
import io.ordo.domain.TaskState;
import io.ordo.ports.Clock;
import io.ordo.ports.TaskStore;
import io.ordo.runtime.Publication;
import io.ordo.runtime.Publisher;
import io.ordo.runtime.codec.JacksonPayloadCodec;
import io.ordo.runtime.worker.Outcome;
import io.ordo.runtime.worker.TaskContext;
import io.ordo.runtime.worker.TaskHandler;
import io.ordo.runtime.worker.Worker;
import io.ordo.runtime.worker.WorkerOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What tracing records on any backend, with the OpenTelemetry SDK and its in-memory exporter: the publish
 * span, the process span of each delivery, their parentage and links, attributes, status and events.
 */
abstract class TracedQueueContract {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    /** Retries at once, so a test sees the second attempt without waiting. */
    private static final RetryPolicy AT_ONCE = new RetryPolicy(Duration.ZERO, 1.0, Duration.ZERO, 0.0);

    private final InMemorySpanExporter spans = InMemorySpanExporter.create();
    private final SdkTracerProvider tracerProvider = SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(spans)).build();
    private final OpenTelemetrySdk openTelemetry = OpenTelemetrySdk.builder().setTracerProvider(tracerProvider).build();
    private final OrdoTracing tracing = OrdoTracing.create(openTelemetry);
    private final AtomicReference<SpanContext> currentInHandler = new AtomicReference<>();

    protected TaskStore store;
    private Publisher<String> publisher;
    private Worker<String> worker;

    /** A fresh queue of the backend under test. */
    protected abstract TaskStore newStore(QueueName queue);

    /** The clock the worker reads; the backend's own. */
    protected abstract Clock clock();

    /** Lets {@code duration} pass on the backend's clock. */
    protected abstract void passTime(Duration duration) throws InterruptedException;

    @BeforeEach
    void openQueue() {
        store = newStore(QueueName.of("orders"));
        publisher = new Publisher<>(store, new JacksonPayloadCodec(), List.of(tracing.publishInterceptor()));
    }

    @AfterEach
    void closeQueue() {
        if (worker != null) {
            worker.stop();
        }
        openTelemetry.close();
    }

    @Test
    void the_first_delivery_is_a_child_of_the_publish_span_and_current_in_the_handler() {
        publisher.publish(Publication.of(Partition.ordered("account-42"), "deposit").withId("deposit-1"));

        startWorker((payload, context) -> Outcome.success());
        awaitGone("deposit-1");

        SpanData publish = only(SpanKind.PRODUCER);
        SpanData process = only(SpanKind.CONSUMER);
        assertThat(publish.getName()).isEqualTo("publish orders");
        assertThat(publish.getAttributes().asMap()).containsAllEntriesOf(Map.of(
                SpanAttributes.MESSAGING_SYSTEM, "ordo",
                SpanAttributes.DESTINATION, "orders",
                SpanAttributes.OPERATION_TYPE, "send",
                SpanAttributes.MESSAGE_ID, "deposit-1",
                SpanAttributes.PARTITION, "!account-42",
                SpanAttributes.PUBLISH_OUTCOME, "created"));
        assertThat(process.getName()).isEqualTo("process orders");
        assertThat(process.getParentSpanId()).isEqualTo(publish.getSpanId());
        assertThat(process.getTraceId()).isEqualTo(publish.getTraceId());
        assertThat(process.getLinks()).isEmpty();
        assertThat(process.getAttributes().asMap()).containsAllEntriesOf(Map.of(
                SpanAttributes.MESSAGING_SYSTEM, "ordo",
                SpanAttributes.DESTINATION, "orders",
                SpanAttributes.OPERATION_TYPE, "process",
                SpanAttributes.MESSAGE_ID, "deposit-1",
                SpanAttributes.PARTITION, "!account-42",
                SpanAttributes.ATTEMPT, 1L,
                SpanAttributes.OUTCOME, "success",
                SpanAttributes.CLIENT_ID, worker.consumer().value()));
        assertThat(process.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
        assertThat(currentInHandler.get()).isEqualTo(process.getSpanContext());
        assertThat(store.get(TaskId.of("deposit-1"))).isEmpty();
    }

    @Test
    void a_publish_inside_a_span_of_the_application_joins_its_trace_and_carries_traceparent() {
        Tracer application = openTelemetry.getTracer("application");
        Span request = application.spanBuilder("POST /deposits").startSpan();
        Scope scope = request.makeCurrent();
        try {
            publisher.publish(Publication.of(Partition.regular("p"), "deposit").withId("deposit-1"));
        } finally {
            scope.close();
            request.end();
        }

        SpanData publish = only(SpanKind.PRODUCER);
        assertThat(publish.getParentSpanContext()).isEqualTo(request.getSpanContext());
        assertThat(store.get(TaskId.of("deposit-1")).orElseThrow().task().headers())
                .containsEntry("traceparent", "00-" + publish.getTraceId() + "-" + publish.getSpanId() + "-"
                        + publish.getSpanContext().getTraceFlags().asHex());
    }

    @Test
    void a_retry_is_a_new_trace_linked_to_the_publish_span_and_the_failed_attempt_is_an_error() {
        publisher.publish(Publication.of(Partition.regular("p"), "deposit").withId("deposit-1"));

        startWorker((payload, context) -> {
            if (context.attempt() == 1) {
                throw new IllegalStateException("bank unavailable");
            }
            return Outcome.success();
        });
        awaitGone("deposit-1");

        SpanData publish = only(SpanKind.PRODUCER);
        List<SpanData> processes = all(SpanKind.CONSUMER);
        assertThat(processes).hasSize(2);
        SpanData failed = processes.get(0);
        SpanData retried = processes.get(1);

        assertThat(failed.getParentSpanId()).isEqualTo(publish.getSpanId());
        assertThat(failed.getTraceId()).isEqualTo(publish.getTraceId());
        assertThat(failed.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(failed.getStatus().getDescription()).isEqualTo("java.lang.IllegalStateException: bank unavailable");
        assertThat(failed.getAttributes().get(SpanAttributes.OUTCOME)).isEqualTo("retry");
        assertThat(failed.getEvents()).extracting(EventData::getName).containsExactly("exception");
        assertThat(failed.getEvents().get(0).getAttributes().get(AttributeKey.stringKey(
                "exception.message"))).isEqualTo("bank unavailable");

        assertThat(retried.getParentSpanContext().isValid()).as("a root span").isFalse();
        assertThat(retried.getTraceId()).isNotEqualTo(publish.getTraceId());
        assertThat(linkedTo(retried)).containsExactly(ids(publish.getSpanContext()));
        assertThat(retried.getAttributes().get(SpanAttributes.ATTEMPT)).isEqualTo(2L);
        assertThat(retried.getAttributes().get(SpanAttributes.OUTCOME)).isEqualTo("success");
        assertThat(retried.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
        assertThat(retried.getEvents()).as("no reclaim event after an ordinary retry").isEmpty();
    }

    @Test
    void a_task_that_fails_for_good_is_an_error_with_its_reason() {
        publisher.publish(Publication.of(Partition.regular("p"), "deposit").withId("deposit-1"));

        startWorker((payload, context) -> Outcome.fail("account closed"));
        await("deposit-1 dead-lettered", () -> store.get(TaskId.of("deposit-1"))
                .filter(task -> task.state() == TaskState.DEAD).isPresent());
        await("its span ended", () -> all(SpanKind.CONSUMER).size() == 1);

        SpanData process = only(SpanKind.CONSUMER);
        assertThat(process.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(process.getStatus().getDescription()).isEqualTo("account closed");
        assertThat(process.getAttributes().get(SpanAttributes.OUTCOME)).isEqualTo("fail");
    }

    @Test
    void a_rate_limit_is_not_an_error() {
        publisher.publish(Publication.of(Partition.regular("p"), "deposit").withId("deposit-1"));

        startWorker((payload, context) -> Outcome.rateLimited(Duration.ofMinutes(1), "bank throttled"));
        await("its span ended", () -> all(SpanKind.CONSUMER).size() == 1);

        SpanData process = only(SpanKind.CONSUMER);
        assertThat(process.getAttributes().get(SpanAttributes.OUTCOME)).isEqualTo("rate-limited");
        assertThat(process.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
        assertThat(process.getEvents()).isEmpty();
    }

    @Test
    void a_task_back_after_its_holder_died_is_linked_and_carries_the_reclaim_as_an_event() throws Exception {
        store.configure(store.settings().toBuilder().heartbeatTtl(Duration.ofSeconds(1)).build());
        publisher.publish(Publication.of(Partition.regular("p"), "deposit").withId("deposit-1"));
        assertThat(store.consume(ConsumerId.of("dies"), 1, Duration.ZERO)).hasSize(1);
        passTime(Duration.ofMillis(1100));
        assertThat(store.reclaim().returned()).isEqualTo(1);

        startWorker((payload, context) -> Outcome.success());
        awaitGone("deposit-1");

        SpanData publish = only(SpanKind.PRODUCER);
        SpanData process = only(SpanKind.CONSUMER);
        assertThat(process.getParentSpanContext().isValid()).isFalse();
        assertThat(linkedTo(process)).containsExactly(ids(publish.getSpanContext()));
        assertThat(process.getAttributes().get(SpanAttributes.ATTEMPT)).isEqualTo(2L);
        assertThat(process.getEvents()).extracting(EventData::getName).containsExactly(SpanAttributes.RECLAIMED_EVENT);
        Attributes event = process.getEvents().get(0).getAttributes();
        assertThat(event.get(SpanAttributes.RECLAIM_CAUSE)).isEqualTo("holder-stopped-heartbeating");
        assertThat(event.get(SpanAttributes.LAST_ERROR)).isNotBlank();
    }

    @Test
    void a_task_back_after_its_processing_timed_out_carries_that_cause() throws Exception {
        store.configure(store.settings().toBuilder().processingTimeout(Duration.ofSeconds(1)).build());
        publisher.publish(Publication.of(Partition.regular("p"), "deposit").withId("deposit-1"));
        assertThat(store.consume(ConsumerId.of("hung"), 1, Duration.ZERO)).as("alive for the default 30 s").hasSize(1);
        passTime(Duration.ofMillis(1100));
        assertThat(store.reclaim().timedOut()).isEqualTo(1);

        startWorker((payload, context) -> Outcome.success());
        awaitGone("deposit-1");

        SpanData process = only(SpanKind.CONSUMER);
        assertThat(process.getLinks()).hasSize(1);
        assertThat(process.getEvents()).extracting(EventData::getName).containsExactly(SpanAttributes.RECLAIMED_EVENT);
        assertThat(process.getEvents().get(0).getAttributes().get(SpanAttributes.RECLAIM_CAUSE))
                .isEqualTo("processing-timed-out");
    }

    @Test
    void a_batch_gives_each_task_its_own_publish_span_and_a_duplicate_says_so() {
        publisher.publishAll(List.of(Publication.of(Partition.regular("p"), "a").withId("a"),
                Publication.of(Partition.regular("p"), "b").withId("b")));
        publisher.publish(Publication.of(Partition.regular("p"), "a").withId("a"));

        List<SpanData> publishes = all(SpanKind.PRODUCER);
        assertThat(publishes).extracting(span -> span.getAttributes().get(SpanAttributes.MESSAGE_ID))
                .containsExactly("a", "b", "a");
        assertThat(publishes).extracting(span -> span.getAttributes().get(SpanAttributes.BATCH_COUNT))
                .containsExactly(2L, 2L, null);
        assertThat(publishes).extracting(span -> span.getAttributes().get(SpanAttributes.PUBLISH_OUTCOME))
                .containsExactly("created", "created", "duplicate");
        assertThat(publishes.get(0).getSpanId()).isNotEqualTo(publishes.get(1).getSpanId());
    }

    /** The trace and span ids of the spans {@code span} links to. */
    private static List<String> linkedTo(SpanData span) {
        return span.getLinks().stream().map(link -> ids(link.getSpanContext())).toList();
    }

    private static String ids(SpanContext context) {
        return context.getTraceId() + "/" + context.getSpanId();
    }

    private void startWorker(TaskHandler<String> handler) {
        worker = Worker.builder(store, String.class, (String payload, TaskContext context) -> {
                    currentInHandler.set(Span.current().getSpanContext());
                    return handler.handle(payload, context);
                })
                .options(WorkerOptions.builder().concurrency(1).fetchWait(Duration.ofMillis(50)).retryPolicy(AT_ONCE)
                        .gracePeriod(Duration.ofSeconds(2)).build())
                .clock(clock())
                .interceptor(tracing.deliveryInterceptor())
                .build();
        worker.start();
    }

    private void awaitGone(String id) {
        await(id + " acked", () -> store.get(TaskId.of(id)).isEmpty());
    }

    private static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + TIMEOUT + ": " + what);
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what, e);
            }
        }
    }

    private List<SpanData> all(SpanKind kind) {
        return spans.getFinishedSpanItems().stream().filter(span -> span.getKind() == kind).toList();
    }

    private SpanData only(SpanKind kind) {
        List<SpanData> found = all(kind);
        assertThat(found).as("%s spans", kind).hasSize(1);
        return found.get(0);
    }
}
