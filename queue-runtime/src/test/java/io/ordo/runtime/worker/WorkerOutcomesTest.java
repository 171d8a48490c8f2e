package io.ordo.runtime.worker;

import io.ordo.domain.DeadLetter;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.RetryPolicy;
import io.ordo.domain.TaskId;
import io.ordo.domain.TaskState;
import io.ordo.ports.TaskSnapshot;
import io.ordo.runtime.Publication;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.random.RandomGenerator;
import java.util.random.RandomGeneratorFactory;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/** What the worker does with each handler outcome; retry timing exact on virtual time. */
class WorkerOutcomesTest {
    private static final Partition EMAILS = Partition.regular("emails");

    private final WorkerHarness harness = new WorkerHarness();

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void success_acks_the_task_and_the_handler_sees_the_decoded_payload_and_its_attempt() {
        harness.publish(EMAILS, "mail-1");
        List<String> seen = new CopyOnWriteArrayList<>();

        harness.start((payload, context) -> {
            seen.add(payload + " attempt " + context.attempt() + " in " + context.partition());
            return Outcome.success();
        });

        Eventually.until("mail-1 is processed", () -> harness.events.count(Settlement.PROCESSED) == 1);
        assertThat(seen).containsExactly("mail-1 attempt 1 in emails");
        assertThat(harness.isGone("mail-1")).isTrue();
        assertThat(harness.store.stats().ackedTotal()).isEqualTo(1);
    }

    @Test
    void a_result_is_kept_with_the_completed_task_encoded_by_the_worker_s_codec_while_the_queue_keeps_results() {
        harness.store.configure(harness.store.settings().toBuilder().resultRetention(Duration.ofHours(1)).build());
        harness.publish(EMAILS, "mail-1");

        harness.start((payload, context) -> Outcome.success(Map.of("sent", payload)));

        Eventually.until("mail-1 is processed", () -> harness.events.count(Settlement.PROCESSED) == 1);
        TaskSnapshot completed = harness.store.get(TaskId.of("mail-1")).orElseThrow();
        assertThat(completed.state()).isEqualTo(TaskState.COMPLETED);
        assertThat(new String(completed.completion().orElseThrow().result(), StandardCharsets.UTF_8))
                .isEqualTo("{\"sent\":\"mail-1\"}");
        assertThat(harness.store.stats().completed()).isEqualTo(1);
    }

    @Test
    void a_task_published_with_its_own_backoff_and_attempts_limit_is_retried_and_dead_lettered_by_them() {
        harness.maxAttempts(5);
        RetryPolicy everyThreeSeconds = new RetryPolicy(Duration.ofSeconds(3), 1.0, Duration.ofSeconds(3), 0.0);
        harness.publisher.publish(Publication.of(EMAILS, "mail-1").withId("mail-1")
                .withMaxAttempts(2).withRetryPolicy(everyThreeSeconds));
        List<Long> attemptTimes = new CopyOnWriteArrayList<>();
        long start = harness.clock.millis();

        harness.start((payload, context) -> {
            attemptTimes.add(harness.clock.millis());
            throw new IllegalStateException("smtp server said 451");
        });

        Eventually.until("the retry is scheduled", () -> harness.events.count(Settlement.RETRIED) == 1);
        assertThat(harness.get("mail-1").task().readyAt()).as("its own 3 s, not the worker's 1 s")
                .isEqualTo(harness.clock.millis() + 3000);
        harness.clock.advanceMillis(3000);
        Eventually.until("mail-1 is a dead letter", () -> harness.events.count(Settlement.DEAD_LETTERED) == 1);

        assertThat(attemptTimes).containsExactly(start, start + 3000);
        assertThat(harness.store.deadLetters(0, 10).items().get(0).attempts()).as("its own 2, not the queue's 5")
                .isEqualTo(2);
    }

    @Test
    void an_exception_is_retried_after_1_2_and_4_seconds_exactly_then_dead_lettered_with_its_class_and_message() {
        harness.maxAttempts(4);
        harness.publish(EMAILS, "mail-1");
        long start = harness.clock.millis();
        List<Long> attemptTimes = new CopyOnWriteArrayList<>();

        harness.start((payload, context) -> {
            attemptTimes.add(harness.clock.millis());
            throw new IllegalStateException("smtp server said 451");
        });

        long[] delays = {1000, 2000, 4000};
        for (int i = 0; i < delays.length; i++) {
            long delay = delays[i];
            int retries = i + 1;
            Eventually.until("retry " + retries + " is scheduled", () -> harness.events.count(Settlement.RETRIED) == retries);
            assertThat(harness.get("mail-1").task().readyAt()).isEqualTo(harness.clock.millis() + delay);
            harness.clock.advanceMillis(delay - 1);
            Eventually.holdStill(Duration.ofMillis(50));
            assertThat(attemptTimes).as("not retried a millisecond early").hasSize(retries);
            harness.clock.advanceMillis(1);
            Eventually.until("attempt " + (retries + 1) + " ran", () -> attemptTimes.size() == retries + 1);
        }
        Eventually.until("mail-1 is a dead letter", () -> harness.events.count(Settlement.DEAD_LETTERED) == 1);

        assertThat(attemptTimes).containsExactly(start, start + 1000, start + 3000, start + 7000);
        DeadLetter dead = harness.store.deadLetters(0, 10).items().get(0);
        assertThat(dead.reason()).isEqualTo("java.lang.IllegalStateException: smtp server said 451");
        assertThat(dead.attempts()).isEqualTo(4);
    }

    @Test
    void the_jitter_is_drawn_from_the_random_port_so_a_seed_replays_the_exact_delays() {
        RetryPolicy jittered = new RetryPolicy(Duration.ofSeconds(1), 2.0, Duration.ofMinutes(1), 0.5);
        harness.options.retryPolicy(jittered);
        harness.random = seeded(42);
        RandomGenerator replay = seeded(42);
        harness.maxAttempts(4);
        harness.publish(EMAILS, "mail-1");
        List<Long> readyAt = new ArrayList<>();

        harness.start((payload, context) -> {
            throw new IllegalStateException("flaky");
        });

        for (int failures = 1; failures <= 3; failures++) {
            int expected = failures;
            Eventually.until("failure " + expected + " is rejected", () -> harness.events.count(Settlement.RETRIED) == expected);
            long now = harness.clock.millis();
            long delay = jittered.delayAfter(failures, replay).toMillis();
            readyAt.add(harness.get("mail-1").task().readyAt() - now);
            assertThat(readyAt.get(failures - 1)).isEqualTo(delay);
            harness.clock.advanceMillis(delay);
        }
        assertThat(readyAt).as("jitter changes the delays").isNotEqualTo(List.of(1000L, 2000L, 4000L));
    }

    @Test
    void retry_after_returns_the_task_with_the_handlers_delay_and_reason() {
        harness.publish(EMAILS, "mail-1");

        harness.start((payload, context) -> Outcome.retryAfter(Duration.ofMinutes(5), "mailbox full"));

        Eventually.until("mail-1 is returned", () -> harness.events.count(Settlement.RETRIED) == 1);
        assertThat(harness.get("mail-1").task().readyAt()).isEqualTo(harness.clock.millis() + 300_000);
        assertThat(harness.get("mail-1").task().lastError()).isEqualTo("mailbox full");
        assertThat(harness.get("mail-1").task().attempts()).isEqualTo(1);
    }

    @Test
    void fail_sends_the_task_to_the_dead_letters_at_once_without_retrying() {
        harness.publish(EMAILS, "mail-1");

        harness.start((payload, context) -> Outcome.fail("no such address"));

        Eventually.until("mail-1 is a dead letter", () -> harness.events.count(Settlement.DEAD_LETTERED) == 1);
        assertThat(harness.get("mail-1").state()).isEqualTo(TaskState.DEAD);
        assertThat(harness.store.deadLetters(0, 1).items().get(0).reason()).isEqualTo("no such address");
        assertThat(harness.events.started).containsExactly("mail-1");
    }

    @Test
    void rate_limited_blocks_the_partition_for_the_duration_and_does_not_spend_an_attempt() {
        harness.options.concurrency(1).prefetch(1);
        harness.publish(EMAILS, "mail-1", "mail-2");
        List<String> attempts = new CopyOnWriteArrayList<>();

        harness.start((payload, context) -> {
            attempts.add(payload + "#" + context.attempt());
            return attempts.size() == 1 ? Outcome.rateLimited(Duration.ofSeconds(10), "429 from provider") : Outcome.success();
        });

        Eventually.until("mail-1 is rate-limited", () -> harness.events.count(Settlement.RATE_LIMITED) == 1);
        assertThat(harness.store.stats().blockedPartitions()).isEqualTo(1);
        assertThat(harness.get("mail-1").task().attempts()).as("the attempt did not count").isZero();
        harness.clock.advanceMillis(9_999);
        Eventually.holdStill(Duration.ofMillis(50));
        assertThat(attempts).as("nothing from a blocked partition").containsExactly("mail-1#1");

        harness.clock.advanceMillis(1);
        Eventually.until("both are processed", () -> harness.events.count(Settlement.PROCESSED) == 2);
        assertThat(attempts).containsExactly("mail-1#1", "mail-1#1", "mail-2#1");
    }

    @Test
    void a_payload_that_cannot_be_decoded_is_a_dead_letter_at_once() {
        harness.store.publish(List.of(NewTask.builder(EMAILS, "not json".getBytes(UTF_8)).id("garbled").build()));

        harness.start((payload, context) -> Outcome.success());

        Eventually.until("garbled is a dead letter", () -> harness.events.count(Settlement.DEAD_LETTERED) == 1);
        assertThat(harness.store.deadLetters(0, 1).items().get(0).reason())
                .startsWith("cannot decode the payload: cannot decode JSON payload as java.lang.String");
    }

    @Test
    void a_handler_that_returns_no_outcome_is_retried_like_one_that_threw() {
        harness.publish(EMAILS, "mail-1");

        harness.start((payload, context) -> null);

        Eventually.until("mail-1 is returned", () -> harness.events.count(Settlement.RETRIED) == 1);
        assertThat(harness.get("mail-1").task().lastError())
                .isEqualTo("java.lang.IllegalStateException: the handler returned no outcome; return Outcome.success() when done");
    }

    @Test
    void an_error_thrown_by_the_handler_is_a_failed_attempt_too() {
        harness.publish(EMAILS, "mail-1");

        harness.start((payload, context) -> {
            throw new StackOverflowError();
        });

        Eventually.until("mail-1 is returned", () -> harness.events.count(Settlement.RETRIED) == 1);
        assertThat(harness.get("mail-1").task().lastError()).isEqualTo("java.lang.StackOverflowError");
    }

    private static RandomGenerator seeded(long seed) {
        return RandomGeneratorFactory.of("L64X128MixRandom").create(seed);
    }
}
