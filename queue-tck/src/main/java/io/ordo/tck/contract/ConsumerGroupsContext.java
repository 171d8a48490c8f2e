package io.ordo.tck.contract;

import io.ordo.domain.GroupName;
import io.ordo.domain.NewTask;
import io.ordo.domain.QueueSettings;
import io.ordo.ports.TaskSnapshot;
import io.ordo.ports.TaskStore;

import java.util.List;
import java.util.function.UnaryOperator;

import static io.ordo.ports.PublishOutcome.CREATED;
import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static io.ordo.tck.fixtures.TaskIds.id;
import static io.ordo.tck.fixtures.TaskIds.idsOf;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the consumer groups' contracts share (docs/groups.md): two groups' names, a group's store from
 * {@link GroupStoreUnderTest} on the same backend, and the steps their tests take through a group's store.
 */
public abstract class ConsumerGroupsContext extends ContractContext {
    protected static final GroupName BILLING = GroupName.of("billing");
    protected static final GroupName NOTIFY = GroupName.of("notify");

    private final GroupStoreUnderTest groupStoreUnderTest;

    protected ConsumerGroupsContext(StoreUnderTest storeUnderTest, GroupStoreUnderTest groupStoreUnderTest) {
        super(storeUnderTest);
        this.groupStoreUnderTest = groupStoreUnderTest;
    }

    /** The store of a group of this test's queue; the group need not exist. */
    protected TaskStore groupStore(GroupName group) {
        return groupStoreUnderTest.create(queue, group, clock);
    }

    /** Creates the group and returns its store. */
    protected TaskStore created(GroupName group) {
        assertThat(store.createGroup(group)).as("created " + group).isTrue();
        return groupStore(group);
    }

    protected void publish(TaskStore through, NewTask... tasks) {
        assertThat(through.publish(List.of(tasks))).as("setup publish").allSatisfy(
                receipt -> assertThat(receipt.outcome()).isEqualTo(CREATED));
    }

    protected static List<String> take(TaskStore from, int max) {
        return idsOf(from.consume(workerA(), max, NO_WAIT));
    }

    protected static TaskSnapshot snapshotIn(TaskStore in, String id) {
        return in.get(id(id)).orElseThrow(() -> new AssertionError("expected task '" + id + "' in " + in.group()));
    }

    protected static void configure(TaskStore in, UnaryOperator<QueueSettings.Builder> change) {
        in.configure(change.apply(in.settings().toBuilder()).build());
    }
}
