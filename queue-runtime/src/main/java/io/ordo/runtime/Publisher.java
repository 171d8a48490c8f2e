package io.ordo.runtime;

import io.ordo.domain.InvalidInputException;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.TaskId;
import io.ordo.domain.TaskTypes;
import io.ordo.domain.Validate;
import io.ordo.ports.PayloadCodec;
import io.ordo.ports.PublishReceipt;
import io.ordo.ports.TaskPublishing;

import java.util.ArrayList;
import java.util.List;

/**
 * Publishes typed payloads to one queue: encodes them with the codec and hands them to the store.
 * A call is one atomic publish: a batch is written whole or, if any task is invalid, not at all.
 * Each task gets a type (a worker routes by it: {@code TaskRouter}): the publication's if it names one,
 * else the publisher's: by default the payload's class's simple name ({@link TaskTypes#of}).
 *
 * <pre>{@code
 * Publisher<Deposit> deposits = new Publisher<>(store, new JacksonPayloadCodec());
 * deposits.publish(Partition.ordered("account-42"), new Deposit(100));
 * deposits.publishAll(List.of(
 *         Publication.of(Partition.ordered("account-42"), new Deposit(50)).withId("deposit-8"),
 *         Publication.of(Partition.regular("audit"), new Deposit(50)).withPriority(-10)));
 * }</pre>
 *
 * @param <T> the payload type this publisher sends
 */
public final class Publisher<T> {
    private final TaskPublishing store;
    private final PayloadCodec codec;
    private final PublishInterceptor interceptor;
    /** The type of tasks whose publication names none; null: the payload's class's. */
    private final String type;

    /** Publishes each task with the type its publication names, else its payload's class's simple name. */
    public Publisher(TaskPublishing store, PayloadCodec codec) {
        this(store, codec, List.of());
    }

    /**
     * A publisher whose batches pass through {@code interceptors} on their way to the store, the first
     * one outermost (tracing, say: {@code ordo-tracing-otel}).
     */
    public Publisher(TaskPublishing store, PayloadCodec codec, List<PublishInterceptor> interceptors) {
        this(store, codec, interceptors, null);
    }

    /** Publishes each task with the type its publication names, else {@code type}. */
    public Publisher(TaskPublishing store, PayloadCodec codec, String type) {
        this(store, codec, List.of(), Validate.notNull("type", type));
    }

    /**
     * Publishes each task with the type its publication names, else {@code type} (null: the payload's
     * class's simple name), through {@code interceptors}.
     */
    public Publisher(TaskPublishing store, PayloadCodec codec, List<PublishInterceptor> interceptors, String type) {
        this.store = Validate.notNull("store", store);
        this.codec = Validate.notNull("codec", codec);
        this.interceptor = PublishInterceptor.chain(interceptors);
        this.type = type == null ? null : Validate.text("type", type, NewTask.MAX_TYPE_LENGTH);
    }

    /** Publishes one payload with a generated id, the default priority and no delay. */
    public PublishReceipt publish(Partition partition, T payload) {
        return publish(Publication.of(partition, payload));
    }

    public PublishReceipt publish(Publication<? extends T> publication) {
        return publishAll(List.of(publication)).get(0);
    }

    /** Publishes the payloads into one partition, in list order (the order an ordered partition keeps). */
    public List<PublishReceipt> publishAll(Partition partition, List<? extends T> payloads) {
        Validate.notNull("payloads", payloads);
        List<Publication<T>> publications = new ArrayList<>(payloads.size());
        for (int i = 0; i < payloads.size(); i++) {
            T payload = payloads.get(i);
            if (payload == null) {
                throw new InvalidInputException("payloads[" + i + "]", "must not be null");
            }
            publications.add(Publication.of(partition, payload));
        }
        return publishAll(publications);
    }

    /** Publishes the batch in one atomic step; receipts come back in batch order. */
    public List<PublishReceipt> publishAll(List<? extends Publication<? extends T>> publications) {
        Validate.notNull("publications", publications);
        List<NewTask> tasks = new ArrayList<>(publications.size());
        for (int i = 0; i < publications.size(); i++) {
            Publication<? extends T> publication = publications.get(i);
            if (publication == null) {
                throw new InvalidInputException("publications[" + i + "]", "must not be null");
            }
            tasks.add(toTask(publication));
        }
        if (interceptor == PublishInterceptor.NONE) {
            return store.publish(tasks);
        }
        List<TaskId> ids = tasks.stream().map(NewTask::id).toList();
        return interceptor.intercept(store.queue(), List.copyOf(tasks), intercepted -> {
            if (intercepted == null || !intercepted.stream().map(task -> task == null ? null : task.id()).toList().equals(ids)) {
                throw new IllegalStateException("a publish interceptor must pass on the same tasks in the same order;"
                        + " it changed the ids " + ids);
            }
            return store.publish(intercepted);
        });
    }

    private NewTask toTask(Publication<? extends T> publication) {
        String taskType = publication.type() != null ? publication.type()
                : type != null ? type : TaskTypes.of(publication.payload().getClass());
        return new NewTask(publication.id(), publication.partition(), publication.priority(),
                codec.encode(publication.payload()), publication.delay(), publication.headers(), taskType,
                publication.maxAttempts(), publication.retryPolicy(), publication.runAt(), publication.timeout());
    }
}
