package io.ordo.dashboard;

import io.ordo.domain.QueueName;
import io.ordo.ports.QueueInspection;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * After an inspection that took {@code d}, nothing is inspected again until twenty times {@code d}
 * has passed, whichever queue is asked for and however; cheap inspections are repeated at once.
 */
class InspectionPacerTest {
    private static final QueueView ORDERS = QueueView.of(QueueName.of("orders"));
    private static final QueueView EMAILS = QueueView.of(QueueName.of("emails"));
    private static final long MILLI = 1_000_000L;

    private final AtomicLong nanos = new AtomicLong();
    private final AtomicInteger calls = new AtomicInteger();
    private final InspectionPacer pacer = new InspectionPacer(nanos::get);

    /** An inspection that takes {@code millis} of the fake clock and says which call it was. */
    private Supplier<QueueInspection> taking(long millis) {
        return () -> {
            nanos.addAndGet(millis * MILLI);
            return new QueueInspection(Instant.ofEpochMilli(calls.incrementAndGet()), List.of(), 0,
                    List.of(), 0, List.of(), 0, List.of(), 0);
        };
    }

    @Test
    void a_second_look_within_twenty_times_the_cost_gets_the_last_reading() {
        Optional<QueueInspection> first = pacer.inspect(ORDERS, taking(100));
        nanos.addAndGet(1_999 * MILLI);

        assertThat(pacer.inspect(ORDERS, taking(100))).containsSame(first.orElseThrow());
        assertThat(calls).hasValue(1);
    }

    @Test
    void after_twenty_times_the_cost_the_queue_is_inspected_again() {
        pacer.inspect(ORDERS, taking(100));
        nanos.addAndGet(2_000 * MILLI);

        assertThat(pacer.inspect(ORDERS, taking(100)).orElseThrow().inspectedAt()).isEqualTo(Instant.ofEpochMilli(2));
    }

    @Test
    void asking_for_other_queues_meanwhile_buys_no_inspection() {
        pacer.inspect(ORDERS, taking(100));
        for (int i = 0; i < 100; i++) {
            assertThat(pacer.inspect(QueueView.of(QueueName.of("other-" + i)), taking(100))).isEmpty();
            nanos.addAndGet(10 * MILLI);
        }
        assertThat(calls).as("one inspection in 1 s after one that took 100 ms").hasValue(1);

        nanos.addAndGet(1_000 * MILLI);
        assertThat(pacer.inspect(EMAILS, taking(100))).isPresent();
        assertThat(calls).hasValue(2);
    }

    @Test
    void an_action_forgets_the_reading_and_lets_the_next_inspection_go_ahead() {
        pacer.inspect(ORDERS, taking(100));
        pacer.forget(ORDERS);

        assertThat(pacer.inspect(ORDERS, taking(100)).orElseThrow().inspectedAt()).isEqualTo(Instant.ofEpochMilli(2));
    }

    @Test
    void a_failed_inspection_waits_only_as_long_as_it_took() {
        Supplier<QueueInspection> failing = () -> {
            nanos.addAndGet(10_000 * MILLI);
            throw new IllegalStateException("timed out");
        };
        assertThatThrownBy(() -> pacer.inspect(ORDERS, failing)).hasMessage("timed out");
        assertThat(pacer.inspect(ORDERS, taking(100))).as("within the 10 s it took").isEmpty();
        nanos.addAndGet(10_000 * MILLI);

        assertThat(pacer.inspect(ORDERS, taking(100))).isPresent();
    }

    @Test
    void the_readings_kept_are_bounded() {
        for (int i = 0; i < 3 * InspectionPacer.MAX_READINGS; i++) {
            pacer.inspect(QueueView.of(QueueName.of("queue-" + i)), taking(0));
            nanos.addAndGet(MILLI);
        }
        assertThat(calls).hasValue(3 * InspectionPacer.MAX_READINGS);
        assertThat(pacer.readingsKept()).isEqualTo(InspectionPacer.MAX_READINGS);
    }
}
