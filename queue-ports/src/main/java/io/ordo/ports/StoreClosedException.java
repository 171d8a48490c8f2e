package io.ordo.ports;

import io.ordo.domain.OrdoException;

/**
 * The store's factory was closed: the store cannot be used any more. Not retryable, unlike
 * {@link QueueUnavailableException}: the same call fails the same way until a new factory is made.
 */
public class StoreClosedException extends OrdoException {
    private static final long serialVersionUID = 1L;

    public StoreClosedException(String message) {
        super(message);
    }

    public StoreClosedException(String message, Throwable cause) {
        super(message, cause);
    }
}
