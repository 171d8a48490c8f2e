package io.ordo.ports;

import io.ordo.domain.OrdoException;

/** The backend cannot be reached or did not answer in time. Retryable: the same call may succeed later. */
public class QueueUnavailableException extends OrdoException {
    private static final long serialVersionUID = 1L;

    public QueueUnavailableException(String message) {
        super(message);
    }

    public QueueUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    public QueueUnavailableException(Throwable cause) {
        super(cause);
    }
}
