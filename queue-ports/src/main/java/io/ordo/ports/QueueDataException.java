package io.ordo.ports;

import io.ordo.domain.OrdoException;

/** The backend holds data Ordo cannot use, e.g. a queue key of the wrong type written by someone else. Not retryable. */
public class QueueDataException extends OrdoException {
    private static final long serialVersionUID = 1L;

    public QueueDataException(String message) {
        super(message);
    }

    public QueueDataException(String message, Throwable cause) {
        super(message, cause);
    }

    public QueueDataException(Throwable cause) {
        super(cause);
    }
}
