package io.ordo.spring;

import io.ordo.domain.InvalidInputException;
import io.ordo.domain.Partition;
import io.ordo.domain.PublishRules;
import io.ordo.domain.QueueName;
import io.ordo.inmemory.InMemoryTaskStoreFactory;
import io.ordo.lettuce.LettuceTaskStores;
import io.ordo.domain.ConsumerId;
import io.ordo.ports.StoreClosedException;
import io.ordo.ports.TaskStore;
import io.ordo.runtime.codec.JacksonPayloadCodec;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.runtime.Publisher;
import io.ordo.runtime.worker.Outcome;
import io.ordo.runtime.worker.TaskHandler;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What the auto-configuration makes, on the in-memory backend (no Redis needed). */
class OrdoAutoConfigurationTest {
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OrdoAutoConfiguration.class))
            .withPropertyValues("ordo.backend=inmemory");

    @Configuration(proxyBeanMethods = false)
    static class LambdaHandler {
        static final List<String> HANDLED = new CopyOnWriteArrayList<>();
        static final CountDownLatch DONE = new CountDownLatch(1);

        @Bean
        @OrdoWorker(queue = "greetings")
        TaskHandler<String> greetings() {
            return (greeting, context) -> {
                HANDLED.add(greeting);
                DONE.countDown();
                return Outcome.success();
            };
        }
    }

    @Test
    void a_handler_declared_by_a_bean_method_gets_its_payload_type_from_the_return_type() {
        runner.withUserConfiguration(LambdaHandler.class).run(context -> {
            assertThat(context).hasSingleBean(TaskStoreFactory.class);
            assertThat(context.getBean(TaskStoreFactory.class)).isInstanceOf(InMemoryTaskStoreFactory.class);
            context.getBean(OrdoPublishers.class).publisher("greetings", String.class)
                    .publish(Partition.regular("a"), "hello");
            assertThat(LambdaHandler.DONE.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(LambdaHandler.HANDLED).containsExactly("hello");
            assertThat(context.getBean(OrdoWorkers.class).workers()).hasSize(1);
        });
    }

    @Test
    void bad_input_in_a_transaction_throws_at_once_naming_the_field_and_nothing_is_published() {
        runner.withPropertyValues("ordo.worker.enabled=false").run(context -> {
            Publisher<String> outbox = context.getBean(OrdoPublishers.class).publisher("outbox", String.class);
            List<String> tooMany = Collections.nCopies(PublishRules.MAX_BATCH + 1, "x");

            new TransactionTemplate(new TestTransactions()).executeWithoutResult(status ->
                    assertThatThrownBy(() -> outbox.publishAll(Partition.regular("p"), tooMany))
                            .isInstanceOf(InvalidInputException.class).hasMessageContaining("tasks"));

            assertThat(context.getBean(TaskStoreFactory.class).forQueue(QueueName.of("outbox")).stats().ready()).isZero();
        });
    }

    @Test
    void publishes_deferred_to_the_commit_keep_their_order_and_a_failure_at_the_commit_reaches_the_caller() {
        runner.withPropertyValues("ordo.worker.enabled=false").run(context -> {
            TaskStoreFactory stores = context.getBean(TaskStoreFactory.class);
            Publisher<String> outbox = context.getBean(OrdoPublishers.class).publisher("outbox", String.class);
            TransactionTemplate transaction = new TransactionTemplate(new TestTransactions());
            Partition account = Partition.ordered("account-42");

            transaction.executeWithoutResult(status -> {
                outbox.publish(account, "first");
                outbox.publish(account, "second");
                outbox.publish(account, "third");
            });
            List<String> consumed = stores.forQueue(QueueName.of("outbox"))
                    .consume(ConsumerId.of("c"), 10, Duration.ZERO).stream()
                    .map(lease -> new JacksonPayloadCodec().decode(lease.task().payload(), String.class)).toList();
            assertThat(consumed).containsExactly("first", "second", "third");

            assertThatThrownBy(() -> transaction.executeWithoutResult(status -> {
                outbox.publish(account, "fourth");
                stores.close(); // the store goes away before the commit
            })).isInstanceOf(StoreClosedException.class);
        });
    }

    @Test
    void with_after_commit_off_a_publish_in_a_transaction_is_sent_at_once_and_kept_on_rollback() {
        runner.withPropertyValues("ordo.worker.enabled=false", "ordo.publish.after-commit=false").run(context -> {
            Publisher<String> outbox = context.getBean(OrdoPublishers.class).publisher("outbox", String.class);
            TaskStore store = context.getBean(TaskStoreFactory.class).forQueue(QueueName.of("outbox"));

            new TransactionTemplate(new TestTransactions()).executeWithoutResult(status -> {
                outbox.publish(Partition.regular("p"), "at once");
                assertThat(store.stats().ready()).as("inside the transaction").isEqualTo(1);
                status.setRollbackOnly();
            });
            assertThat(store.stats().ready()).as("after the rollback").isEqualTo(1);
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class NotAHandler {
        @Bean
        @OrdoWorker(queue = "greetings")
        Runnable notAHandler() {
            return () -> { };
        }
    }

    @Test
    void an_annotated_bean_that_is_no_handler_fails_the_start_naming_the_bean() {
        runner.withUserConfiguration(NotAHandler.class).run(context -> assertThat(context).hasFailed()
                .getFailure().rootCause().hasMessageContaining("bean 'notAHandler'").hasMessageContaining("no TaskHandler"));
    }

    @Configuration(proxyBeanMethods = false)
    static class BadQueue {
        @Bean
        @OrdoWorker(queue = "")
        TaskHandler<String> nameless() {
            return (greeting, context) -> Outcome.success();
        }
    }

    @Test
    void a_bad_queue_name_fails_the_start_naming_the_field() {
        runner.withUserConfiguration(BadQueue.class).run(context -> assertThat(context).hasFailed()
                .getFailure().rootCause().isInstanceOf(io.ordo.domain.InvalidInputException.class)
                .hasMessageContaining("queue"));
    }

    @Test
    void the_chosen_backend_missing_from_the_classpath_is_named() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(OrdoAutoConfiguration.class))
                .withClassLoader(new FilteredClassLoader(LettuceTaskStores.class))
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("ordo.backend=lettuce needs io.ordo:adapter-lettuce"));
    }

    @Test
    void workers_can_be_turned_off_and_an_application_store_factory_wins() {
        runner.withPropertyValues("ordo.worker.enabled=false")
                .withBean("myStores", TaskStoreFactory.class, () -> new InMemoryTaskStoreFactory(io.ordo.ports.Clock.system()))
                .run(context -> {
                    assertThat(context).doesNotHaveBean(OrdoWorkers.class);
                    assertThat(context).hasSingleBean(TaskStoreFactory.class).hasBean("myStores");
                    assertThat(context).hasSingleBean(OrdoPublishers.class);
                });
    }
}
