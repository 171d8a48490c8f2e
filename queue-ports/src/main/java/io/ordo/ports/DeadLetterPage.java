package io.ordo.ports;

import io.ordo.domain.DeadLetter;

import java.util.List;

/** One page of dead letters, oldest first, and how many there are in all. */
public record DeadLetterPage(List<DeadLetter> items, long total, int offset) {
    public DeadLetterPage {
        items = List.copyOf(items);
    }
}
