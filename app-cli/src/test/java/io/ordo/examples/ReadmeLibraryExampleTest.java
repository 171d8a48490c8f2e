package io.ordo.examples;

import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.lettuce.LettuceTaskStores;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.redis.testing.RedisServer;
import io.ordo.runtime.Publisher;
import io.ordo.runtime.codec.JacksonPayloadCodec;
import io.ordo.runtime.worker.Outcome;
import io.ordo.runtime.worker.Worker;
import io.ordo.systemtest.ProjectFiles;
import io.ordo.systemtest.DocSnippets;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's "Use it in your code" example, Guice-free on the Lettuce store, runs against a Redis, and the
 * README shows exactly this code. LibraryUseTest (system-tests) builds the same code as a project of its own.
 */
class ReadmeLibraryExampleTest {
    static final String SECTION = "## Use it in your code";
    private static final String BEGIN = "// README library example: begin";
    private static final String END = "// README library example: end";

    @Test
    void the_example_publishes_and_a_worker_handles_it_on_redis() {
        String printed;
        try (RedisServer server = RedisServer.start()) { // its own, so no other test's queue "emails" is there
            String redisUri = server.uri();
            printed = ReadmeExampleTest.capturingStandardOut(() -> {
                // README library example: begin
                record Email(String to) {
                }

                try (TaskStoreFactory stores = LettuceTaskStores.factory(redisUri)) { // e.g. "redis://localhost:6379"
                    TaskStore emails = stores.forQueue(QueueName.of("emails"));
                    Publisher<Email> publisher = new Publisher<>(emails, new JacksonPayloadCodec());
                    publisher.publish(Partition.of("welcome"), new Email("alice@example.com"));

                    CountDownLatch sent = new CountDownLatch(1);
                    try (Worker<Email> worker = Worker.builder(emails, Email.class, (email, context) -> {
                                System.out.println("welcome mail to " + email.to());
                                sent.countDown();
                                return Outcome.success();
                            }).build()) {
                        worker.start();
                        sent.await(10, TimeUnit.SECONDS);
                    }
                }
                // README library example: end
            });
        }

        assertThat(printed.lines()).containsExactly("welcome mail to alice@example.com");
    }

    @Test
    void the_readme_shows_the_example_as_tested() throws IOException {
        Path root = ProjectFiles.projectRoot();
        List<String> test = Files.readAllLines(root.resolve("app-cli/src/test/java/io/ordo/examples/ReadmeLibraryExampleTest.java"));
        List<String> readme = Files.readAllLines(root.resolve("README.md"));

        assertThat(DocSnippets.blockAfter(SECTION, "```java", readme)).as("the java block of README.md's " + SECTION)
                .isEqualTo(DocSnippets.between(BEGIN, END, test));
    }
}
