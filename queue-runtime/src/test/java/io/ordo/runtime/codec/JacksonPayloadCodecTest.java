package io.ordo.runtime.codec;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ordo.domain.InvalidInputException;
import io.ordo.ports.PayloadCodec;
import io.ordo.ports.PayloadCodecException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JacksonPayloadCodecTest {
    record Deposit(String account, long cents, List<String> tags) {
    }

    record Strict(String name) {
    }

    static final class Unserializable {
        public String getValue() {
            throw new IllegalStateException("broken getter");
        }
    }

    private final PayloadCodec codec = new JacksonPayloadCodec();

    @Test
    void a_record_survives_the_round_trip() {
        Deposit deposit = new Deposit("account-42", 10_000, List.of("salary"));

        assertThat(codec.decode(codec.encode(deposit), Deposit.class)).isEqualTo(deposit);
    }

    @Test
    void payloads_are_plain_json() {
        byte[] bytes = codec.encode(new Deposit("account-42", 5, List.of()));

        assertThat(new String(bytes, UTF_8)).isEqualTo("{\"account\":\"account-42\",\"cents\":5,\"tags\":[]}");
    }

    @Test
    void unknown_properties_are_ignored_so_producers_can_add_fields_first() {
        byte[] newer = "{\"name\":\"x\",\"addedLater\":true}".getBytes(UTF_8);

        assertThat(codec.decode(newer, Strict.class)).isEqualTo(new Strict("x"));
    }

    @Test
    void a_payload_that_cannot_be_decoded_names_the_target_type() {
        byte[] notJson = "{not json".getBytes(UTF_8);

        assertThatThrownBy(() -> codec.decode(notJson, Deposit.class))
                .isInstanceOf(PayloadCodecException.class)
                .hasMessageStartingWith("cannot decode JSON payload as " + Deposit.class.getName() + ": ")
                .hasCauseInstanceOf(JacksonException.class)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void content_after_the_json_value_is_refused() {
        byte[] glued = "{\"name\":\"x\"} {\"name\":\"y\"}".getBytes(UTF_8);

        assertThatThrownBy(() -> codec.decode(glued, Strict.class))
                .isInstanceOf(PayloadCodecException.class)
                .hasMessageContaining(Strict.class.getName());
    }

    @Test
    void a_payload_of_the_wrong_shape_names_the_target_type() {
        byte[] wrongShape = "[1,2,3]".getBytes(UTF_8);

        assertThatThrownBy(() -> codec.decode(wrongShape, Deposit.class))
                .isInstanceOf(PayloadCodecException.class)
                .hasMessageContaining(Deposit.class.getName());
    }

    @Test
    void a_value_that_cannot_be_encoded_names_its_type() {
        assertThatThrownBy(() -> codec.encode(new Unserializable()))
                .isInstanceOf(PayloadCodecException.class)
                .hasMessageStartingWith("cannot encode " + Unserializable.class.getName() + " as JSON: ")
                .hasCauseInstanceOf(JacksonException.class);
    }

    @Test
    void a_caller_supplied_mapper_is_used_as_it_is() {
        PayloadCodec strict = new JacksonPayloadCodec(new ObjectMapper());
        byte[] newer = "{\"name\":\"x\",\"addedLater\":true}".getBytes(UTF_8);

        assertThatThrownBy(() -> strict.decode(newer, Strict.class))
                .isInstanceOf(PayloadCodecException.class)
                .hasMessageContaining("addedLater");
    }

    @Test
    void decoding_without_bytes_or_type_is_bad_input() {
        assertThatThrownBy(() -> codec.decode(null, Strict.class))
                .isInstanceOf(InvalidInputException.class).hasMessage("payload: must not be null");
        assertThatThrownBy(() -> codec.decode(new byte[0], null))
                .isInstanceOf(InvalidInputException.class).hasMessage("type: must not be null");
    }
}
