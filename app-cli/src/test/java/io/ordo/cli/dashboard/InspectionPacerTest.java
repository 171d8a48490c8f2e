package io.ordo.cli.dashboard;

import io.ordo.domain.QueueName;
import io.ordo.ports.QueueInspection;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

import static org.assertj.core.api.Assertions.assertThat;

/** A costly inspection is not repeated until twenty times its cost has passed; cheap ones always are. */
class InspectionPacerTest {
    private static final QueueName ORDERS = QueueName.of("orders");
    private static final long MILLI = 1_000_000L;

    private final AtomicLong nanos = new AtomicLong();
    private final AtomicInteger calls = new AtomicInteger();
    private final InspectionPacer pacer = new InspectionPacer(nanos::get);

    /** An inspection that takes {@code millis} of the fake clock and says which call it was. */
    private IntFunction<QueueInspection> taking(long millis) {
        return limit -> {
            nanos.addAndGet(millis * MILLI);
            return new QueueInspection(Instant.ofEpochMilli(calls.incrementAndGet()), List.of(), 0,
                    List.of(), 0, List.of(), 0, List.of(), 0);
        };
    }

    @Test
    void a_second_look_within_twenty_times_the_cost_gets_the_last_reading() {
        QueueInspection first = pacer.inspect(ORDERS, 10, taking(100));
        nanos.addAndGet(1_999 * MILLI);

        assertThat(pacer.inspect(ORDERS, 10, taking(100))).isSameAs(first);
        assertThat(calls).hasValue(1);
    }

    @Test
    void after_twenty_times_the_cost_the_queue_is_inspected_again() {
        pacer.inspect(ORDERS, 10, taking(100));
        nanos.addAndGet(2_000 * MILLI);

        assertThat(pacer.inspect(ORDERS, 10, taking(100)).inspectedAt()).isEqualTo(Instant.ofEpochMilli(2));
    }

    @Test
    void another_limit_an_action_or_another_queue_asks_afresh() {
        pacer.inspect(ORDERS, 10, taking(100));
        pacer.inspect(ORDERS, 20, taking(100));
        pacer.inspect(QueueName.of("emails"), 20, taking(100));
        pacer.forget(ORDERS);
        pacer.inspect(ORDERS, 20, taking(100));

        assertThat(calls).hasValue(4);
    }
}
