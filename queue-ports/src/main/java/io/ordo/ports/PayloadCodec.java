package io.ordo.ports;

/** Turns typed payloads into the bytes a task carries and back. */
public interface PayloadCodec {
    /** The bytes for a value. */
    byte[] encode(Object value);

    /** The value of a type from bytes made by {@link #encode}. */
    <T> T decode(byte[] payload, Class<T> type);
}
