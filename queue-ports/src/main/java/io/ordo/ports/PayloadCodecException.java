package io.ordo.ports;

import io.ordo.domain.OrdoException;

/** A payload could not be encoded or decoded. */
public class PayloadCodecException extends OrdoException {
    private static final long serialVersionUID = 1L;

    public PayloadCodecException(String message) {
        super(message);
    }

    public PayloadCodecException(String message, Throwable cause) {
        super(message, cause);
    }

    public PayloadCodecException(Throwable cause) {
        super(cause);
    }
}
