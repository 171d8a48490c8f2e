package io.ordo.runtime.codec;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.ordo.domain.Validate;
import io.ordo.ports.PayloadCodec;
import io.ordo.ports.PayloadCodecException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Payloads as JSON through Jackson. Unknown properties are ignored when decoding so a producer
 * may add fields before every consumer knows them; anything after the JSON value is refused, as a
 * payload cut or glued together is corrupt (docs/decisions/json-payload-codec.md).
 */
public final class JacksonPayloadCodec implements PayloadCodec {
    private static final byte[] JSON_NULL = "null".getBytes(StandardCharsets.US_ASCII);
    private final ObjectMapper mapper;
    /**
     * One reader per payload type, made on first use: {@code mapper.readValue(bytes, type)} resolves the
     * type and looks up its deserializer again on every call, which a worker pays once per task.
     */
    private final ClassValue<ObjectReader> readers = new ClassValue<>() {
        @Override
        protected ObjectReader computeValue(Class<?> type) {
            return mapper.readerFor(type);
        }
    };

    /** A codec with Ordo's defaults: plain JSON, tolerant of unknown properties, strict about trailing content. */
    public JacksonPayloadCodec() {
        this(new ObjectMapper()
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS));
    }

    /**
     * A codec on the caller's mapper (its modules and features), used as it is. Configure it before
     * handing it over: a type's reader takes the mapper's settings when it first decodes that type.
     */
    public JacksonPayloadCodec(ObjectMapper mapper) {
        this.mapper = Validate.notNull("mapper", mapper);
    }

    /**
     * The value as JSON. A value that is JSON {@code null} (a null, a {@code NullNode}, an empty
     * {@code Optional}) is refused: a task needs a payload, and {@code ordo publish null} is refused too
     * (docs/decisions/cli-publish-input.md).
     */
    @Override
    public byte[] encode(Object value) {
        try {
            byte[] json = mapper.writeValueAsBytes(value);
            if (Arrays.equals(json, JSON_NULL)) {
                throw new PayloadCodecException("cannot publish " + typeName(value)
                        + ": it is JSON null, and a task needs a payload");
            }
            return json;
        } catch (IOException e) {
            throw new PayloadCodecException("cannot encode " + typeName(value) + " as JSON: " + describe(e), e);
        }
    }

    @Override
    public <T> T decode(byte[] payload, Class<T> type) {
        Validate.notNull("payload", payload);
        Validate.notNull("type", type);
        try {
            return readers.get(type).readValue(payload);
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
