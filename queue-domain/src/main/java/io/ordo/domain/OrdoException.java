package io.ordo.domain;

/** Root of every exception Ordo throws: unchecked, with a specific subclass per condition. */
public class OrdoException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public OrdoException(String message) {
        super(message);
    }

    public OrdoException(String message, Throwable cause) {
        super(message, cause);
    }

    public OrdoException(Throwable cause) {
        super(cause);
    }
}
