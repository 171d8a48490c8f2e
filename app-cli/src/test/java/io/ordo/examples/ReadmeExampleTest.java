package io.ordo.examples;

import com.google.inject.Guice;
import com.google.inject.Injector;
import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.TaskId;
import io.ordo.inmemory.InMemoryQueueModule;
import io.ordo.ports.AckOutcome;
import io.ordo.ports.Clock;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.runtime.Publisher;
import io.ordo.runtime.codec.JacksonPayloadCodec;
import io.ordo.runtime.worker.Outcome;
import io.ordo.runtime.worker.Worker;
import io.ordo.runtime.worker.WorkerOptions;
import io.ordo.systemtest.DocSnippets;
import io.ordo.systemtest.ProjectFiles;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.ordo.systemtest.DocSnippets.between;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/** The README's examples compile and do what they say, and the README shows exactly this code. */
class ReadmeExampleTest {
    private static final String WORKER_BEGIN = "// README worker example: begin";
    private static final String WORKER_END = "// README worker example: end";
    private static final String BEGIN = "// README example: begin";
    private static final String END = "// README example: end";

    @Test
    void the_worker_example_publishes_typed_payloads_and_handles_them_in_order() {
        String printed = capturingStandardOut(() -> {
            // README worker example: begin
            record Deposit(String account, long cents) {
            }

            Injector injector = Guice.createInjector(new InMemoryQueueModule(Clock.system()));
            try (TaskStoreFactory stores = injector.getInstance(TaskStoreFactory.class)) {
                TaskStore orders = stores.forQueue(QueueName.of("orders"));

                // An ordered partition: its tasks are handled one at a time, in publish order.
                Publisher<Deposit> deposits = new Publisher<>(orders, new JacksonPayloadCodec());
                Partition account = Partition.ordered("account-42");
                deposits.publish(account, new Deposit("account-42", 100));
                deposits.publish(account, new Deposit("account-42", 50));

                CountDownLatch handled = new CountDownLatch(2);
                try (Worker<Deposit> worker = Worker.builder(orders, Deposit.class, (deposit, context) -> {
                            System.out.println(deposit.account() + " +" + deposit.cents());
                            handled.countDown();
                            return Outcome.success(); // throwing instead: retried later with backoff
                        })
                        .options(WorkerOptions.builder().concurrency(4).build())
                        .build()) {
                    worker.start();
                    handled.await(10, TimeUnit.SECONDS);
                } // close() stops gracefully: running handlers finish, the rest goes back
            }
            // README worker example: end
        });

        assertThat(printed.lines()).containsExactly("account-42 +100", "account-42 +50");
    }

    @Test
    void the_example_publishes_consumes_in_order_and_acks() {
        String printed = capturingStandardOut(() -> {
            // README example: begin
            Injector injector = Guice.createInjector(new InMemoryQueueModule(Clock.system()));
            try (TaskStoreFactory stores = injector.getInstance(TaskStoreFactory.class)) {
                TaskStore orders = stores.forQueue(QueueName.of("orders"));

                // An ordered partition: its tasks are processed one batch at a time, in publish order.
                Partition account = Partition.ordered("account-42");
                orders.publish(List.of(
                        NewTask.builder(account, "{\"deposit\":100}".getBytes(UTF_8)).id("deposit-1").build(),
                        NewTask.builder(account, "{\"withdraw\":30}".getBytes(UTF_8)).id("withdraw-1").build()));

                ConsumerId worker = ConsumerId.of("worker-1");
                List<Lease> batch = orders.consume(worker, 10, Duration.ofSeconds(1));
                for (Lease lease : batch) {
                    System.out.println(lease.id() + " " + new String(lease.task().payload(), UTF_8));
                }
                Map<TaskId, AckOutcome> acked = orders.ack(worker, batch.stream().map(Lease::id).toList());
                System.out.println(acked);
            }
            // README example: end
        });

        assertThat(printed.lines()).containsExactly(
                "deposit-1 {\"deposit\":100}",
                "withdraw-1 {\"withdraw\":30}",
                "{deposit-1=ACKED, withdraw-1=ACKED}");
    }

    @Test
    void the_readme_shows_the_example_as_tested() throws IOException {
        Path root = ProjectFiles.projectRoot();
        List<String> test = Files.readAllLines(root.resolve("app-cli/src/test/java/io/ordo/examples/ReadmeExampleTest.java"));
        List<String> readme = Files.readAllLines(root.resolve("README.md"));
        List<String> tested = between(BEGIN, END, test);
        List<String> inCode = readme.subList(readme.indexOf("## In code"), readme.size());
        List<String> afterWorkerBlock = inCode.subList(inCode.indexOf("```java") + 1, inCode.size());

        assertThat(between(WORKER_BEGIN, WORKER_END, test)).as("the first java block of README.md's In code")
                .isEqualTo(DocSnippets.blockAfter("## In code", "```java", readme));
        assertThat(between("```java", "```", afterWorkerBlock)).as("the second java block of README.md's In code")
                .isEqualTo(tested);
    }

    /** Example code, which may throw what the README's code would let its caller handle. */
    @FunctionalInterface
    interface Example {
        void run() throws Exception;
    }

    /** What the code printed on standard out while it ran. */
    static String capturingStandardOut(Example code) {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, UTF_8));
        try {
            code.run();
        } catch (Exception e) {
            throw new AssertionError("the example threw", e);
        } finally {
            System.setOut(original);
        }
        return captured.toString(UTF_8);
    }
}
