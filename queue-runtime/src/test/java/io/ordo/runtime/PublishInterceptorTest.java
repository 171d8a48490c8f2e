package io.ordo.runtime;

import io.ordo.domain.InvalidInputException;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.TaskId;
import io.ordo.inmemory.InMemoryTaskStoreFactory;
import io.ordo.ports.PublishOutcome;
import io.ordo.ports.PublishReceipt;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import io.ordo.runtime.codec.JacksonPayloadCodec;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A publisher's batches pass through its interceptors, which may add headers and see the receipts or the failure. */
class PublishInterceptorTest {
    private static final Partition P = Partition.regular("p");

    private final TaskStore store = new InMemoryTaskStoreFactory(new VirtualClock()).forQueue(QueueName.of("orders"));
    private final List<String> seen = new ArrayList<>();

    @Test
    void an_interceptor_adds_headers_and_sees_the_queue_and_the_receipts() {
        Publisher<String> publisher = new Publisher<>(store, new JacksonPayloadCodec(), List.of((queue, tasks, next) -> {
            seen.add("publishing " + tasks.size() + " to " + queue);
            List<PublishReceipt> receipts = next.publish(tasks.stream()
                    .map(task -> task.withHeaders(Map.of("traceparent", "00-trace-" + task.id()))).toList());
            seen.add("receipts " + receipts.stream().map(PublishReceipt::outcome).toList());
            return receipts;
        }));

        publisher.publishAll(List.of(Publication.of(P, "a").withId("a").withHeader("tenant", "acme"),
                Publication.of(P, "b").withId("b")));
        publisher.publish(Publication.of(P, "a").withId("a"));

        assertThat(seen).containsExactly("publishing 2 to orders", "receipts [CREATED, CREATED]",
                "publishing 1 to orders", "receipts [DUPLICATE]");
        assertThat(headersOf("a")).isEqualTo(Map.of("tenant", "acme", "traceparent", "00-trace-a"));
        assertThat(headersOf("b")).isEqualTo(Map.of("traceparent", "00-trace-b"));
    }

    @Test
    void an_interceptor_sees_the_store_refuse_a_batch_and_nothing_is_written() {
        store.configure(store.settings().toBuilder().maxPayloadBytes(16).build());
        Publisher<String> publisher = new Publisher<>(store, new JacksonPayloadCodec(), List.of((queue, tasks, next) -> {
            try {
                return next.publish(tasks);
            } catch (RuntimeException e) {
                seen.add("failed: " + e.getClass().getSimpleName());
                throw e;
            }
        }));

        assertThatThrownBy(() -> publisher.publishAll(List.of(Publication.of(P, "small").withId("small"),
                Publication.of(P, "x".repeat(100)).withId("large"))))
                .isInstanceOf(InvalidInputException.class);

        assertThat(seen).containsExactly("failed: InvalidInputException");
        assertThat(store.get(TaskId.of("small"))).isEmpty();
    }

    @Test
    void interceptors_wrap_one_another_the_first_outermost() {
        Publisher<String> publisher = new Publisher<>(store, new JacksonPayloadCodec(),
                List.of(named("outer"), named("inner")));

        publisher.publish(Publication.of(P, "a").withId("a"));

        assertThat(seen).containsExactly("outer before", "inner before", "inner after", "outer after");
        assertThat(headersOf("a")).isEqualTo(Map.of("outer", "1", "inner", "1"));
    }

    @Test
    void a_batch_whose_ids_an_interceptor_changed_is_refused_and_nothing_is_written() {
        Publisher<String> publisher = new Publisher<>(store, new JacksonPayloadCodec(), List.of((queue, tasks, next) ->
                next.publish(List.of(NewTask.builder(P, tasks.get(0).payload()).id("other").build()))));

        assertThatThrownBy(() -> publisher.publish(Publication.of(P, "a").withId("a")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("same tasks in the same order");

        assertThat(store.get(TaskId.of("a"))).isEmpty();
        assertThat(store.get(TaskId.of("other"))).isEmpty();
    }

    @Test
    void headers_added_past_the_limit_are_refused_naming_the_field() {
        Map<String, String> full = new HashMap<>();
        for (int i = 0; i < NewTask.MAX_HEADERS; i++) {
            full.put("h" + i, "v");
        }
        NewTask task = new NewTask(TaskId.of("a"), P, io.ordo.domain.Priority.DEFAULT, new byte[] {'1'},
                java.time.Duration.ZERO, full);

        assertThatThrownBy(() -> task.withHeaders(Map.of("traceparent", "x")))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("headers"));
        assertThat(task.withHeaders(Map.of("h0", "replaced")).headers()).containsEntry("h0", "replaced")
                .hasSize(NewTask.MAX_HEADERS);
    }

    @Test
    void a_null_interceptor_is_refused_naming_it() {
        List<PublishInterceptor> interceptors = new ArrayList<>();
        interceptors.add(null);

        assertThatThrownBy(() -> new Publisher<String>(store, new JacksonPayloadCodec(), interceptors))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("interceptors[0]"));
    }

    private PublishInterceptor named(String name) {
        return (queue, tasks, next) -> {
            seen.add(name + " before");
            List<PublishReceipt> receipts = next.publish(tasks.stream().map(task -> task.withHeaders(Map.of(name, "1"))).toList());
            seen.add(name + " after");
            assertThat(receipts).extracting(PublishReceipt::outcome).containsOnly(PublishOutcome.CREATED);
            return receipts;
        };
    }

    private Map<String, String> headersOf(String id) {
        return store.get(TaskId.of(id)).orElseThrow().task().headers();
    }
}
