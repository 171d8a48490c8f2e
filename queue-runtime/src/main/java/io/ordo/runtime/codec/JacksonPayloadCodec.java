package io.ordo.runtime.codec;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ordo.domain.Validate;
import io.ordo.ports.PayloadCodec;
import io.ordo.ports.PayloadCodecException;

import java.io.IOException;

/**
 * Payloads as JSON through Jackson. Unknown properties are ignored when decoding so a producer
 * may add fields before every consumer knows them; anything after the JSON value is refused, as a
 * payload cut or glued together is corrupt (docs/decisions/json-payload-codec.md).
 */
public final class JacksonPayloadCodec implements PayloadCodec {
    private final ObjectMapper mapper;

    /** A codec with Ordo's defaults: plain JSON, tolerant of unknown properties, strict about trailing content. */
    public JacksonPayloadCodec() {
        this(new ObjectMapper()
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS));
    }

    /** A codec on the caller's mapper (its modules and features), used as it is. */
    public JacksonPayloadCodec(ObjectMapper mapper) {
        this.mapper = Validate.notNull("mapper", mapper);
    }

    @Override
    public byte[] encode(Object value) {
        try {
            return mapper.writeValueAsBytes(value);
        } catch (IOException e) {
            throw new PayloadCodecException("cannot encode " + typeName(value) + " as JSON: " + describe(e), e);
        }
    }

    @Override
    public <T> T decode(byte[] payload, Class<T> type) {
        Validate.notNull("payload", payload);
        Validate.notNull("type", type);
        try {
            return mapper.readValue(payload, type);
        } catch (IOException e) {
            throw new PayloadCodecException("cannot decode JSON payload as " + type.getName() + ": " + describe(e), e);
        }
    }

    private static String typeName(Object value) {
        return value == null ? "null" : value.getClass().getName();
    }

    // Jackson's full message appends the source location over several lines; the original message is one line.
    private static String describe(IOException e) {
        return e instanceof JacksonException jackson ? jackson.getOriginalMessage() : e.getMessage();
    }
}
