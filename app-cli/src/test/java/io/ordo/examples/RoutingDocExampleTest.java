package io.ordo.examples;

import com.google.inject.Guice;
import io.ordo.domain.DeadLetter;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.RetryPolicy;
import io.ordo.inmemory.InMemoryQueueModule;
import io.ordo.ports.Clock;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.runtime.Publication;
import io.ordo.runtime.Publisher;
import io.ordo.runtime.codec.JacksonPayloadCodec;
import io.ordo.runtime.worker.Outcome;
import io.ordo.runtime.worker.TaskRouter;
import io.ordo.runtime.worker.Worker;
import io.ordo.systemtest.ProjectFiles;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.ordo.systemtest.DocSnippets.between;
import static io.ordo.systemtest.DocSnippets.blockAfter;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/** docs/routing.md's examples run and do what it says, and the page shows exactly this code. */
class RoutingDocExampleTest {
    private static final String ROUTING_BEGIN = "// routing example: begin";
    private static final String ROUTING_END = "// routing example: end";
    private static final String RETRIES_BEGIN = "// retries example: begin";
    private static final String RETRIES_END = "// retries example: end";

    record Deposit(String account, long cents) {
    }

    record Refund(String order, long cents) {
    }

    @Test
    void the_routing_example_hands_each_task_to_its_types_handler() {
        String printed = ReadmeExampleTest.capturingStandardOut(() -> {
            // routing example: begin
            try (TaskStoreFactory stores = Guice.createInjector(new InMemoryQueueModule(Clock.system()))
                    .getInstance(TaskStoreFactory.class)) {
                TaskStore payments = stores.forQueue(QueueName.of("payments"));
                Partition account = Partition.ordered("account-42");

                // Each task's type is its payload's class's simple name: "Deposit", "Refund".
                new Publisher<Deposit>(payments, new JacksonPayloadCodec()).publish(account, new Deposit("account-42", 100));
                new Publisher<Refund>(payments, new JacksonPayloadCodec()).publish(account, new Refund("order-7", 30));
                // A type named by hand, which this worker has no handler for.
                payments.publish(List.of(NewTask.builder(account, "{}".getBytes(UTF_8)).id("audit-1").type("Audit").build()));

                CountDownLatch handled = new CountDownLatch(2);
                TaskRouter router = TaskRouter.builder()
                        .on(Deposit.class, (deposit, context) -> {
                            System.out.println("deposit " + deposit.cents() + " to " + deposit.account());
                            handled.countDown();
                            return Outcome.success();
                        })
                        .on(Refund.class, (refund, context) -> {
                            System.out.println("refund " + refund.cents() + " for " + refund.order());
                            handled.countDown();
                            return Outcome.success();
                        })
                        .build(); // no handler for its type: a dead letter (or .unknownTypes(UnknownTypes.passOn(...)))
                try (Worker<byte[]> worker = Worker.routing(payments, router).build()) {
                    worker.start();
                    while (payments.stats().dead() == 0) {
                        Thread.sleep(10);
                    }
                    handled.await(10, TimeUnit.SECONDS);
                }
                DeadLetter audit = payments.deadLetters(0, 10).items().get(0);
                System.out.println(audit.id() + ": " + audit.reason());
            }
            // routing example: end
        });

        assertThat(printed.lines()).containsExactly("deposit 100 to account-42", "refund 30 for order-7",
                "audit-1: no handler for type Audit");
    }

    @Test
    void the_retries_example_dead_letters_a_task_after_its_own_two_attempts() {
        String printed = ReadmeExampleTest.capturingStandardOut(() -> {
            // retries example: begin
            try (TaskStoreFactory stores = Guice.createInjector(new InMemoryQueueModule(Clock.system()))
                    .getInstance(TaskStoreFactory.class)) {
                TaskStore emails = stores.forQueue(QueueName.of("emails")); // the queue allows 5 attempts (default)

                // This task: at most 2 attempts, 50 ms apart, whatever the queue and the worker say.
                RetryPolicy quickly = new RetryPolicy(Duration.ofMillis(50), 1.0, Duration.ofMillis(50), 0.0);
                new Publisher<String>(emails, new JacksonPayloadCodec()).publish(
                        Publication.of(Partition.regular("welcome"), "alice@example.com")
                                .withMaxAttempts(2).withRetryPolicy(quickly));

                try (Worker<String> worker = Worker.builder(emails, String.class, (address, context) -> {
                    System.out.println("attempt " + context.attempt() + " to " + address);
                    throw new IllegalStateException("mail server down");
                }).build()) {
                    worker.start();
                    while (emails.stats().dead() == 0) {
                        Thread.sleep(10);
                    }
                }
                DeadLetter dead = emails.deadLetters(0, 10).items().get(0);
                System.out.println("dead after " + dead.attempts() + " attempts: " + dead.reason());
            }
            // retries example: end
        });

        assertThat(printed.lines()).containsExactly("attempt 1 to alice@example.com", "attempt 2 to alice@example.com",
                "dead after 2 attempts: java.lang.IllegalStateException: mail server down");
    }

    @Test
    void docs_routing_md_shows_the_examples_as_tested() throws IOException {
        Path root = ProjectFiles.projectRoot();
        List<String> test = Files.readAllLines(root.resolve("app-cli/src/test/java/io/ordo/examples/RoutingDocExampleTest.java"));
        List<String> page = Files.readAllLines(root.resolve("docs/routing.md"));

        assertThat(blockAfter("## A worker that routes by type", "```java", page)).as("docs/routing.md's routing example")
                .isEqualTo(between(ROUTING_BEGIN, ROUTING_END, test));
        assertThat(blockAfter("## A task's own attempts limit and backoff", "```java", page))
                .as("docs/routing.md's retries example").isEqualTo(between(RETRIES_BEGIN, RETRIES_END, test));
    }
}
