package io.ordo.spring;

import io.ordo.domain.NewTask;
import io.ordo.domain.PublishRules;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.ports.PublishOutcome;
import io.ordo.ports.PublishReceipt;
import io.ordo.ports.TaskPublishing;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import java.util.List;

/**
 * Publishing that follows the caller's Spring transaction: inside one, the batch is checked now and
 * published when the transaction commits (in the order the publishes were made), and dropped if it
 * rolls back; outside one, it is published at once. A deferred publish answers with receipts that
 * name the task ids as {@link PublishOutcome#CREATED}: whether an id turns out a duplicate is known
 * only at the commit. A publish that fails after the commit throws from the commit call.
 */
final class AfterCommitPublishing implements TaskPublishing {
    private final TaskPublishing store;

    AfterCommitPublishing(TaskPublishing store) {
        this.store = store;
    }

    @Override
    public List<PublishReceipt> publish(List<NewTask> tasks) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()
                || !TransactionSynchronizationManager.isSynchronizationActive()) {
            return store.publish(tasks);
        }
        List<NewTask> batch = PublishRules.validate(tasks, store.settings());
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                store.publish(batch);
            }
        });
        return batch.stream().map(task -> new PublishReceipt(task.id(), PublishOutcome.CREATED)).toList();
    }

    @Override
    public QueueName queue() {
        return store.queue();
    }

    @Override
    public QueueSettings settings() {
        return store.settings();
    }
}
