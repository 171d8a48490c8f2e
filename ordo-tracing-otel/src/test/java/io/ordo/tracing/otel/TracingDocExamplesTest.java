package io.ordo.tracing.otel;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.multibindings.Multibinder;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.inmemory.InMemoryQueueModule;
import io.ordo.inmemory.InMemoryTaskStoreFactory;
import io.ordo.ports.Clock;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.runtime.PublishInterceptor;
import io.ordo.runtime.Publisher;
import io.ordo.runtime.RuntimeModule;
import io.ordo.runtime.Workers;
import io.ordo.runtime.codec.JacksonPayloadCodec;
import io.ordo.runtime.worker.DeliveryInterceptor;
import io.ordo.runtime.worker.Outcome;
import io.ordo.runtime.worker.Worker;
import io.ordo.runtime.worker.WorkerOptions;
import io.ordo.systemtest.DocSnippets;
import io.ordo.systemtest.ProjectFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The examples of docs/tracing.md run and record the spans it says, and the page shows exactly this code. */
class TracingDocExamplesTest {
    private static final String BUILDER_BEGIN = "// docs/tracing.md builder example: begin";
    private static final String BUILDER_END = "// docs/tracing.md builder example: end";
    private static final String GUICE_BEGIN = "// docs/tracing.md guice example: begin";
    private static final String GUICE_END = "// docs/tracing.md guice example: end";

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build())
            .build();

    @AfterEach
    void closeSdk() {
        sdk.close();
    }

    @Test
    void the_builder_example_traces_a_publish_and_its_processing() throws Exception {
        OpenTelemetry openTelemetry = sdk;
        try (TaskStoreFactory stores = new InMemoryTaskStoreFactory(Clock.system())) {
            TaskStore orders = stores.forQueue(QueueName.of("orders"));
            CountDownLatch handled = new CountDownLatch(1);

            // docs/tracing.md builder example: begin
            record Deposit(String account, long cents) {
            }

            OrdoTracing tracing = OrdoTracing.create(openTelemetry);

            Publisher<Deposit> deposits = new Publisher<>(orders, new JacksonPayloadCodec(),
                    List.of(tracing.publishInterceptor()));
            deposits.publish(Partition.ordered("account-42"), new Deposit("account-42", 100)); // span "publish orders"

            try (Worker<Deposit> worker = Worker.builder(orders, Deposit.class, (deposit, context) -> {
                        Span.current().setAttribute("deposit.cents", deposit.cents()); // span "process orders"
                        handled.countDown();
                        return Outcome.success();
                    })
                    .interceptor(tracing.deliveryInterceptor())
                    .build()) {
                worker.start();
                handled.await(10, TimeUnit.SECONDS);
            }
            // docs/tracing.md builder example: end
        }

        SpanData publish = only(SpanKind.PRODUCER);
        SpanData process = only(SpanKind.CONSUMER);
        assertThat(publish.getName()).isEqualTo("publish orders");
        assertThat(process.getName()).isEqualTo("process orders");
        assertThat(process.getParentSpanId()).isEqualTo(publish.getSpanId());
        assertThat(process.getAttributes().get(io.opentelemetry.api.common.AttributeKey.longKey("deposit.cents")))
                .isEqualTo(100L);
    }

    @Test
    void the_guice_example_traces_what_workers_publish_and_process() throws Exception {
        OpenTelemetry openTelemetry = sdk;
        CountDownLatch handled = new CountDownLatch(1);

        // docs/tracing.md guice example: begin
        OrdoTracing tracing = OrdoTracing.create(openTelemetry);
        Injector injector = Guice.createInjector(new InMemoryQueueModule(Clock.system()), new RuntimeModule(),
                new AbstractModule() {
                    @Override
                    protected void configure() {
                        Multibinder.newSetBinder(binder(), PublishInterceptor.class).addBinding()
                                .toInstance(tracing.publishInterceptor());
                        Multibinder.newSetBinder(binder(), DeliveryInterceptor.class).addBinding()
                                .toInstance(tracing.deliveryInterceptor());
                    }
                });
        Workers workers = injector.getInstance(Workers.class);

        // every publisher and worker it makes is traced
        workers.<String>publisher(QueueName.of("emails")).publish(Partition.regular("welcome"), "alice@example.com");
        Worker<String> worker = workers.worker(QueueName.of("emails"), String.class, (email, context) -> {
            handled.countDown();
            return Outcome.success();
        }, WorkerOptions.create());
        worker.start();
        // docs/tracing.md guice example: end
        try {
            assertThat(handled.await(10, TimeUnit.SECONDS)).isTrue();
        } finally {
            worker.stop();
            injector.getInstance(TaskStoreFactory.class).close();
        }

        SpanData publish = only(SpanKind.PRODUCER);
        SpanData process = only(SpanKind.CONSUMER);
        assertThat(publish.getName()).isEqualTo("publish emails");
        assertThat(process.getParentSpanId()).isEqualTo(publish.getSpanId());
        assertThat(process.getAttributes().get(SpanAttributes.PARTITION)).isEqualTo("welcome");
    }

    @Test
    void the_page_shows_the_examples_as_tested() throws IOException {
        List<String> test = Files.readAllLines(ProjectFiles.projectRoot()
                .resolve("ordo-tracing-otel/src/test/java/io/ordo/tracing/otel/TracingDocExamplesTest.java"));
        List<String> page = Files.readAllLines(ProjectFiles.projectRoot().resolve("docs/tracing.md"));
        int first = page.indexOf("```java");
        assertThat(first).as("a java block in docs/tracing.md").isNotNegative();
        List<String> afterFirst = page.subList(first + 1, page.size());

        assertThat(DocSnippets.between("```java", "```", page)).as("the first java block of docs/tracing.md")
                .isEqualTo(DocSnippets.between(BUILDER_BEGIN, BUILDER_END, test));
        assertThat(DocSnippets.between("```java", "```", afterFirst)).as("the second java block of docs/tracing.md")
                .isEqualTo(DocSnippets.between(GUICE_BEGIN, GUICE_END, test));
    }

    private List<SpanData> all(SpanKind kind) {
        return exporter.getFinishedSpanItems().stream().filter(span -> span.getKind() == kind).toList();
    }

    private SpanData only(SpanKind kind) {
        List<SpanData> found = all(kind);
        assertThat(found).as("%s spans", kind).hasSize(1);
        return found.get(0);
    }
}
