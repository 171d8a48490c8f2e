package io.ordo.spring;

import io.ordo.domain.QueueName;
import io.ordo.domain.Validate;
import io.ordo.ports.PayloadCodec;
import io.ordo.ports.TaskPublishing;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.runtime.Publisher;

import java.util.function.Function;

/**
 * Hands out a {@link Publisher} per queue and payload type, encoding with the starter's codec
 * (Ordo's {@code JacksonPayloadCodec} unless the application declares a {@code PayloadCodec} bean).
 * With {@code ordo.publish.after-commit} (the default) a publish inside a Spring transaction waits for
 * its commit and is dropped on rollback.
 *
 * <pre>{@code
 * Publisher<Deposit> deposits = publishers.publisher("deposits", Deposit.class);
 * deposits.publish(Partition.ordered("account-42"), new Deposit("account-42", 100));
 * }</pre>
 */
public final class OrdoPublishers {
    private final TaskStoreFactory stores;
    private final PayloadCodec codec;
    private final Function<TaskPublishing, TaskPublishing> publishing;

    OrdoPublishers(TaskStoreFactory stores, PayloadCodec codec, Function<TaskPublishing, TaskPublishing> publishing) {
        this.stores = stores;
        this.codec = codec;
        this.publishing = publishing;
    }

    public <T> Publisher<T> publisher(String queue, Class<T> type) {
        return publisher(QueueName.of(queue), type);
    }

    /** A publisher of {@code type} payloads to {@code queue}; cheap, so get one where it is used. */
    public <T> Publisher<T> publisher(QueueName queue, Class<T> type) {
        Validate.notNull("queue", queue);
        Validate.notNull("type", type);
        return new Publisher<>(publishing.apply(stores.forQueue(queue)), codec);
    }
}
