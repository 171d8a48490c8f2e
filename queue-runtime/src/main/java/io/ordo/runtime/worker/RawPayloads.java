package io.ordo.runtime.worker;

import io.ordo.ports.PayloadCodec;

/** The payload's bytes as they are: what a routing worker hands its {@link TaskRouter}, which decodes them. */
final class RawPayloads implements PayloadCodec {
    static final PayloadCodec CODEC = new RawPayloads();

    private RawPayloads() {
    }

    @Override
    public byte[] encode(Object value) {
        return ((byte[]) value).clone();
    }

    @Override
    public <T> T decode(byte[] payload, Class<T> type) {
        if (type != byte[].class) {
            throw new IllegalArgumentException("raw payloads decode as byte[] only, not " + type.getName());
        }
        return type.cast(payload);
    }
}
