package io.ordo.tck.contract;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.InvalidInputException;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.TaskState;
import io.ordo.ports.PublishOutcome;
import io.ordo.ports.PublishReceipt;
import io.ordo.ports.TaskSnapshot;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import io.ordo.tck.fixtures.TaskBuilder;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

import static io.ordo.ports.PublishOutcome.CREATED;
import static io.ordo.tck.fixtures.TaskIds.id;
import static io.ordo.tck.fixtures.TaskIds.idsOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What every group of the contract shares: a fresh queue with a unique name per test (so backends
 * that share one server across tests need no cleanup between them), the store serving it, the
 * virtual clock it reads, and the steps the groups are written in.
 *
 * <p>Time is virtual: the store must take "now" from the clock it is given, and tests move it.
 * Only the consume-with-wait tests use wall time, with generous bounds. Tests that need a
 * {@link StoreCharacteristic} the store does not declare are skipped ({@link CharacteristicCondition}).
 */
@ExtendWith(CharacteristicCondition.class)
public abstract class ContractContext {
    protected static final Duration NO_WAIT = Duration.ZERO;
    protected static final Duration DEFAULT_TTL = QueueSettings.DEFAULT_HEARTBEAT_TTL;
    /** Wall-time bound for "promptly": far above a correct store's few milliseconds, far below the wait. */
    protected static final long PROMPTLY_MILLIS = 2_000;

    private final StoreUnderTest storeUnderTest;
    // Fields rather than accessors: the tests read them on nearly every line.
    protected VirtualClock clock;
    protected QueueName queue;
    protected TaskStore store;

    protected ContractContext(StoreUnderTest storeUnderTest) {
        this.storeUnderTest = storeUnderTest;
    }

    @BeforeEach
    void startOnAFreshQueue() {
        clock = new VirtualClock();
        queue = QueueName.of("tck-" + UUID.randomUUID());
        store = createStore(queue, clock);
    }

    /** Another store of the backend under test, e.g. for a second queue. */
    protected TaskStore createStore(QueueName queue, VirtualClock clock) {
        return storeUnderTest.create(queue, clock);
    }

    /** Publishes one batch that the test relies on; every task must be created. */
    protected void given(TaskBuilder... tasks) {
        given(Arrays.stream(tasks).map(TaskBuilder::build).collect(Collectors.toList()));
    }

    protected void given(List<NewTask> tasks) {
        assertThat(store.publish(tasks)).as("setup publish").extracting(PublishReceipt::outcome)
                .containsOnly(CREATED);
    }

    protected List<Lease> consume(ConsumerId consumer, int max) {
        return store.consume(consumer, max, NO_WAIT);
    }

    protected List<String> consumeIds(ConsumerId consumer, int max) {
        return idsOf(consume(consumer, max));
    }

    protected TaskSnapshot snapshot(String id) {
        return store.get(id(id)).orElseThrow(() -> new AssertionError("expected task '" + id + "' to exist"));
    }

    protected int attemptsOf(String id) {
        return snapshot(id).task().attempts();
    }

    protected TaskState stateOf(String id) {
        return snapshot(id).state();
    }

    protected long now() {
        return clock.millis();
    }

    protected void advanceMillis(long millis) {
        clock.advanceMillis(millis);
    }

    protected void advance(Duration duration) {
        clock.advance(duration);
    }

    protected void configure(Function<QueueSettings.Builder, QueueSettings.Builder> change) {
        store.configure(change.apply(store.settings().toBuilder()).build());
    }

    /** Lets every consumer registered so far (by consume, with the default TTL) die. */
    protected void letDefaultHeartbeatsExpire() {
        advance(DEFAULT_TTL);
    }

    protected static PublishReceipt receipt(String id, PublishOutcome outcome) {
        return new PublishReceipt(id(id), outcome);
    }

    protected static void assertInvalid(String field, ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(InvalidInputException.class,
                e -> assertThat(e.field()).as("field named by " + e.getMessage()).isEqualTo(field));
    }

    protected static long millisSince(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }

    protected static List<String> leasesIn(List<Lease> leases, Partition partition) {
        return leases.stream().filter(lease -> lease.partition().equals(partition))
                .map(lease -> lease.id().value()).collect(Collectors.toList());
    }
}
