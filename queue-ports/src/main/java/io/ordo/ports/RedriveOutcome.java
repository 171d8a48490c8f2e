package io.ordo.ports;

/** What redrive did with one id. */
public enum RedriveOutcome {
    /** Back in its partition with attempts reset, due now. */
    REDRIVEN,
    /** No dead letter with that id. */
    UNKNOWN
}
