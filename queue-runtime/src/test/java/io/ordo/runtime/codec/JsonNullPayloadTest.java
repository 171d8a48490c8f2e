package io.ordo.runtime.codec;

import com.fasterxml.jackson.databind.node.NullNode;
import io.ordo.domain.InvalidInputException;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.inmemory.InMemoryTaskStoreFactory;
import io.ordo.ports.PayloadCodecException;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import io.ordo.runtime.Publication;
import io.ordo.runtime.Publisher;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The library refuses a JSON null payload, as {@code ordo publish null} does, and writes nothing. */
class JsonNullPayloadTest {
    private final TaskStore store = new InMemoryTaskStoreFactory(new VirtualClock()).forQueue(QueueName.of("q"));
    private final Publisher<Object> publisher = new Publisher<>(store, new JacksonPayloadCodec());

    @Test
    void a_value_that_is_json_null_is_refused_and_nothing_is_written() {
        assertThatThrownBy(() -> publisher.publishAll(List.of(
                Publication.of(Partition.regular("p"), (Object) "fine"),
                Publication.of(Partition.regular("p"), (Object) NullNode.getInstance()))))
                .isInstanceOf(PayloadCodecException.class).hasMessageContaining("JSON null");
        assertThat(store.stats().publishedTotal()).isZero();
    }

    @Test
    void a_java_null_is_refused_before_encoding() {
        assertThatThrownBy(() -> Publication.of(Partition.regular("p"), null))
                .isInstanceOf(InvalidInputException.class).hasMessage("payload: must not be null");
    }

    @Test
    void the_text_null_inside_json_is_a_payload_like_any_other() {
        assertThat(new String(new JacksonPayloadCodec().encode("null"))).isEqualTo("\"null\"");
        assertThat(new String(new JacksonPayloadCodec().encode(List.of()))).isEqualTo("[]");
    }
}
