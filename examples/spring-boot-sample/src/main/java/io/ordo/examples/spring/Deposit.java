package io.ordo.examples.spring;

/** The payload of a task on the {@code deposits} queue, as JSON through Ordo's codec. */
public record Deposit(String account, long cents) {
}
