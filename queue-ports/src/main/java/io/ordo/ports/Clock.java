package io.ordo.ports;

/**
 * The backend's notion of now, in epoch milliseconds. Stores take it as a port so the simulator
 * and every test run on virtual time; Redis stores use the server's {@code TIME} in production.
 */
@FunctionalInterface
public interface Clock {
    /** Now, in epoch milliseconds. */
    long millis();

    /** The machine's wall clock. */
    static Clock system() {
        return System::currentTimeMillis;
    }
}
