package io.ordo.spring;

import io.micrometer.core.instrument.MeterRegistry;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.runtime.Publisher;
import io.ordo.runtime.metrics.MetricNames;
import io.ordo.runtime.worker.Outcome;
import io.ordo.runtime.worker.TaskContext;
import io.ordo.runtime.worker.TaskHandler;
import io.ordo.redis.RedisTaskStoreFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** An application on a private Redis through Lettuce: its handler bean gets what it publishes, transactions decide. */
@ExtendWith(PrivateRedis.class)
@SpringBootTest(classes = OrdoStarterTest.App.class)
@DirtiesContext
class OrdoStarterTest {
    record Deposit(String account, long cents) {
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class App {
        @Bean
        Deposits deposits() {
            return new Deposits();
        }

        @Bean
        PlatformTransactionManager transactionManager() {
            return new TestTransactions();
        }
    }

    @OrdoWorker(queue = "deposits", concurrency = 2)
    static class Deposits implements TaskHandler<Deposit> {
        final List<Deposit> handled = new CopyOnWriteArrayList<>();
        volatile CountDownLatch expected = new CountDownLatch(0);

        @Override
        public Outcome handle(Deposit deposit, TaskContext context) {
            handled.add(deposit);
            expected.countDown();
            return Outcome.success();
        }
    }

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry properties) {
        // the Spring Data property, to show the fallback; ordo.redis.uri would win over it
        properties.add("spring.data.redis.port", () -> PrivateRedis.server().port());
        properties.add("spring.data.redis.host", () -> PrivateRedis.server().host());
    }

    @Autowired
    OrdoPublishers publishers;
    @Autowired
    Deposits deposits;
    @Autowired
    TaskStoreFactory stores;
    @Autowired
    PlatformTransactionManager transactions;
    @Autowired
    MeterRegistry registry;

    @Test
    void the_handler_bean_processes_what_the_application_publishes_in_order() throws InterruptedException {
        assertThat(stores).isInstanceOf(RedisTaskStoreFactory.class);
        deposits.expected = new CountDownLatch(3);
        Publisher<Deposit> publisher = publishers.publisher("deposits", Deposit.class);
        Partition account = Partition.ordered("account-42");
        publisher.publish(account, new Deposit("account-42", 100));
        publisher.publish(account, new Deposit("account-42", 50));
        publisher.publish(account, new Deposit("account-42", -30));

        assertThat(deposits.expected.await(20, TimeUnit.SECONDS)).as("handled within 20 s").isTrue();
        assertThat(deposits.handled).containsExactly(new Deposit("account-42", 100), new Deposit("account-42", 50),
                new Deposit("account-42", -30));
        // the worker reports to the application's registry (it counts a task once its handler has returned,
        // so a moment after the handler released the latch)
        assertThat(processedWithin(3, 5_000)).as("deposits processed, as the application's registry counts them")
                .isGreaterThanOrEqualTo(3);
    }

    private double processedWithin(double expected, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        double processed = 0;
        while (System.nanoTime() < deadline) {
            var counter = registry.find(MetricNames.PROCESSED).tag(MetricNames.QUEUE_TAG, "deposits").counter();
            processed = counter == null ? 0 : counter.count();
            if (processed >= expected) {
                break;
            }
            Thread.sleep(10);
        }
        return processed;
    }

    @Test
    void a_publish_in_a_transaction_waits_for_the_commit_and_a_rollback_publishes_nothing() {
        Publisher<Deposit> outbox = publishers.publisher("outbox", Deposit.class); // a queue without a worker
        TransactionTemplate transaction = new TransactionTemplate(transactions);

        transaction.executeWithoutResult(status -> {
            outbox.publish(Partition.regular("rolled-back"), new Deposit("account-1", 1));
            status.setRollbackOnly();
        });
        assertThat(stores.forQueue(QueueName.of("outbox")).stats().ready()).as("after the rollback").isZero();

        transaction.executeWithoutResult(status -> {
            outbox.publish(Partition.regular("committed"), new Deposit("account-2", 2));
            assertThat(stores.forQueue(QueueName.of("outbox")).stats().ready()).as("before the commit").isZero();
        });
        assertThat(stores.forQueue(QueueName.of("outbox")).stats().ready()).as("after the commit").isEqualTo(1);

        outbox.publish(Partition.regular("no-transaction"), new Deposit("account-3", 3));
        assertThat(stores.forQueue(QueueName.of("outbox")).stats().ready()).as("outside a transaction").isEqualTo(2);
    }
}
