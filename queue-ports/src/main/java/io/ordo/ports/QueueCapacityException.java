package io.ordo.ports;

import io.ordo.domain.OrdoException;

/** The backend refused a write for lack of capacity (Redis over maxmemory); nothing of the call was written. */
public class QueueCapacityException extends OrdoException {
    private static final long serialVersionUID = 1L;

    public QueueCapacityException(String message) {
        super(message);
    }

    public QueueCapacityException(String message, Throwable cause) {
        super(message, cause);
    }

    public QueueCapacityException(Throwable cause) {
        super(cause);
    }
}
