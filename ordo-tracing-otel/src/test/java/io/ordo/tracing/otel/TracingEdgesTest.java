package io.ordo.tracing.otel;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.ordo.domain.InvalidInputException;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.TaskId;
import io.ordo.inmemory.InMemoryTaskStoreFactory;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import io.ordo.runtime.Publication;
import io.ordo.runtime.Publisher;
import io.ordo.runtime.codec.JacksonPayloadCodec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Tracing when nothing is recorded, when the store refuses a publish, and with bad input. */
class TracingEdgesTest {
    private final TaskStore store = new InMemoryTaskStoreFactory(new VirtualClock()).forQueue(QueueName.of("orders"));

    @Test
    void without_an_sdk_a_publish_adds_no_headers() {
        Publisher<String> publisher = new Publisher<>(store, new JacksonPayloadCodec(),
                List.of(OrdoTracing.create(OpenTelemetry.noop()).publishInterceptor()));

        publisher.publish(Publication.of(Partition.regular("p"), "x").withId("a").withHeader("tenant", "acme"));

        assertThat(store.get(TaskId.of("a")).orElseThrow().task().headers()).containsOnlyKeys("tenant");
    }

    @Test
    void a_publish_the_store_refuses_is_an_error_on_its_spans_and_the_exception_goes_on() {
        InMemorySpanExporter exporter = InMemorySpanExporter.create();
        try (OpenTelemetrySdk sdk = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build()).build()) {
            store.configure(store.settings().toBuilder().maxPayloadBytes(16).build());
            Publisher<String> publisher = new Publisher<>(store, new JacksonPayloadCodec(),
                    List.of(OrdoTracing.create(sdk).publishInterceptor()));

            assertThatThrownBy(() -> publisher.publishAll(List.of(Publication.of(Partition.regular("p"), "small"),
                    Publication.of(Partition.regular("p"), "x".repeat(100)))))
                    .isInstanceOf(InvalidInputException.class);

            List<SpanData> spans = exporter.getFinishedSpanItems();
            assertThat(spans).hasSize(2).allSatisfy(span -> {
                assertThat(span.getKind()).isEqualTo(SpanKind.PRODUCER);
                assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
                assertThat(span.getEvents()).extracting(EventData::getName).containsExactly("exception");
                assertThat(span.getAttributes().get(SpanAttributes.PUBLISH_OUTCOME)).isNull();
            });
        }
    }

    @Test
    void tracing_needs_an_open_telemetry_and_says_so() {
        assertThatThrownBy(() -> OrdoTracing.create(null))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("openTelemetry"));
    }
}
