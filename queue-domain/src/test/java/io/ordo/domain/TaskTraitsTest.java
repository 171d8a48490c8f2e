package io.ordo.domain;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A task's type, own attempts limit and own backoff: checked when built, kept by every change of the task. */
class TaskTraitsTest {
    private static final Partition P = Partition.ordered("p");
    private static final RetryPolicy OWN = new RetryPolicy(Duration.ofMillis(250), 1.5, Duration.ofSeconds(90), 0.125);

    @Test
    void a_type_is_a_name_and_an_attempts_limit_is_1_to_1000_or_none() {
        for (String bad : new String[] {"", "a\tb", "a\u200Bb", "a\u2028b", "x".repeat(101), "\uDC00"}) {
            assertThatThrownBy(() -> NewTask.builder(P, new byte[0]).type(bad).build())
                    .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("type"));
        }
        for (int bad : new int[] {-1, 1001}) {
            assertThatThrownBy(() -> NewTask.builder(P, new byte[0]).maxAttempts(bad).build())
                    .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("maxAttempts"));
        }
        NewTask none = NewTask.builder(P, new byte[0]).build();
        assertThat(none.type()).isNull();
        assertThat(none.maxAttempts()).isZero();
        assertThat(none.retryPolicy()).isNull();
        assertThat(NewTask.builder(P, new byte[0]).type("Ü 💸").maxAttempts(1000).build().type()).isEqualTo("Ü 💸");
    }

    @Test
    void headers_added_later_keep_the_type_limit_and_backoff() {
        NewTask task = NewTask.builder(P, "{}".getBytes(UTF_8)).type("Deposit").maxAttempts(3).retryPolicy(OWN).build();

        NewTask traced = task.withHeaders(Map.of("traceparent", "00-abc"));

        assertThat(traced.type()).isEqualTo("Deposit");
        assertThat(traced.maxAttempts()).isEqualTo(3);
        assertThat(traced.retryPolicy()).isEqualTo(OWN);
        assertThat(traced.headers()).containsEntry("traceparent", "00-abc");
        assertThat(traced).isNotEqualTo(task.withHeaders(Map.of("traceparent", "00-abc")).withHeaders(Map.of("x", "y")));
    }

    @Test
    void the_task_a_publish_creates_keeps_them_through_retries_reclaims_and_redrives() {
        NewTask request = NewTask.builder(P, "{}".getBytes(UTF_8)).type("Deposit").maxAttempts(3).retryPolicy(OWN).build();

        Task task = Task.published(request, 1, 1000);
        for (Task changed : new Task[] {task, task.withAttempts(2), task.retriedAt(5000, "again"), task.withLastError("x"),
                task.reclaimed("gone", ReclaimCause.HOLDER_STOPPED_HEARTBEATING), task.redrivenAt(9000)}) {
            assertThat(changed.type()).isEqualTo("Deposit");
            assertThat(changed.maxAttempts()).isEqualTo(3);
            assertThat(changed.retryPolicy()).isEqualTo(OWN);
        }
        assertThat(task.maxAttemptsOr(5)).isEqualTo(3);
        assertThat(task.retryPolicyOr(RetryPolicy.DEFAULT)).isEqualTo(OWN);
        Task plain = Task.published(NewTask.builder(P, new byte[0]).build(), 2, 1000);
        assertThat(plain.maxAttemptsOr(5)).isEqualTo(5);
        assertThat(plain.retryPolicyOr(RetryPolicy.DEFAULT)).isEqualTo(RetryPolicy.DEFAULT);
        assertThat(plain).isNotEqualTo(Task.published(NewTask.builder(P, new byte[0]).id(plain.id()).type("t").build(), 2, 1000));
    }

    record Deposit(long cents) {
    }

    @Test
    void the_default_type_of_a_payload_class_is_its_simple_name() {
        assertThat(TaskTypes.of(Deposit.class)).isEqualTo("Deposit");
        assertThat(TaskTypes.of(String.class)).isEqualTo("String");
        Object anonymous = new Object() {
        };
        assertThat(TaskTypes.of(anonymous.getClass())).matches("TaskTraitsTest\\$\\d+");
    }
}
