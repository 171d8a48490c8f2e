package io.ordo.redis;

import io.ordo.domain.QueueName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

class DueTimeWakesTest {
    private final List<String> woken = new CopyOnWriteArrayList<>();
    private final DueTimeWakes wakes = new DueTimeWakes(keys -> woken.add(keys.queue().value()));
    private final KeySchema orders = KeySchema.of(QueueName.of("orders"));
    private final KeySchema mails = KeySchema.of(QueueName.of("mails"));

    @AfterEach
    void stop() {
        wakes.close();
    }

    @Test
    void many_consumers_of_a_queue_waiting_for_one_due_time_cause_one_wake() throws InterruptedException {
        long dueAt = System.nanoTime() + Duration.ofMillis(100).toNanos();
        for (int consumer = 0; consumer < 20; consumer++) {
            Thread.sleep(consumer % 5); // the consumers were told at different moments, each its time until then
            wakes.wakeAfter(orders, Duration.ofNanos(dueAt - System.nanoTime()));
        }

        Thread.sleep(300);

        assertThat(woken).containsExactly("orders");
    }

    @Test
    void each_queue_and_each_due_time_gets_its_wake() throws InterruptedException {
        wakes.wakeAfter(orders, Duration.ofMillis(50));
        wakes.wakeAfter(mails, Duration.ofMillis(50));
        wakes.wakeAfter(orders, Duration.ofMillis(150));

        Thread.sleep(500);

        assertThat(woken).containsExactlyInAnyOrder("orders", "mails", "orders");
    }

    @Test
    void a_wake_comes_at_its_due_time_not_before() throws InterruptedException {
        long start = System.nanoTime();
        wakes.wakeAfter(orders, Duration.ofMillis(200));

        Thread.sleep(120);
        assertThat(woken).isEmpty();
        Thread.sleep(400);

        assertThat(woken).containsExactly("orders");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(Duration.ofMillis(200));
    }

    @Test
    void a_failing_wake_is_left_to_the_wait_s_own_timeout_and_later_wakes_still_come() throws InterruptedException {
        DueTimeWakes failingFirst = new DueTimeWakes(keys -> {
            woken.add(keys.queue().value());
            if (woken.size() == 1) {
                throw new IllegalStateException("Redis unreachable");
            }
        });
        try {
            failingFirst.wakeAfter(orders, Duration.ofMillis(20));
            Thread.sleep(200);
            failingFirst.wakeAfter(orders, Duration.ofMillis(20));
            Thread.sleep(200);
        } finally {
            failingFirst.close();
        }

        assertThat(woken).containsExactly("orders", "orders");
    }

    @Test
    void after_close_no_wake_runs() throws InterruptedException {
        wakes.wakeAfter(orders, Duration.ofMillis(50));
        wakes.close();
        wakes.wakeAfter(orders, Duration.ofMillis(60));

        Thread.sleep(300);

        assertThat(woken).isEmpty();
    }
}
