package io.ordo.tck;

import io.ordo.domain.GroupName;
import io.ordo.domain.QueueName;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import io.ordo.tck.contract.AckContract;
import io.ordo.tck.contract.AckAndConsumeContract;
import io.ordo.tck.contract.BadInputContract;
import io.ordo.tck.contract.BlockPartitionContract;
import io.ordo.tck.contract.CancelContract;
import io.ordo.tck.contract.CompletedListingContract;
import io.ordo.tck.contract.ConcurrencyCapsContract;
import io.ordo.tck.contract.ConsumeContract;
import io.ordo.tck.contract.ConsumerGroupsAdminContract;
import io.ordo.tck.contract.ConsumerGroupsContract;
import io.ordo.tck.contract.DeadLetterCapsContract;
import io.ordo.tck.contract.DeadLettersContract;
import io.ordo.tck.contract.FailContract;
import io.ordo.tck.contract.FairnessContract;
import io.ordo.tck.contract.GetContract;
import io.ordo.tck.contract.HeartbeatContract;
import io.ordo.tck.contract.HostileNamesNeverCollideContract;
import io.ordo.tck.contract.InspectContract;
import io.ordo.tck.contract.OrderedPartitionsContract;
import io.ordo.tck.contract.PauseResumeContract;
import io.ordo.tck.contract.PublishContract;
import io.ordo.tck.contract.QueuesContract;
import io.ordo.tck.contract.RateLimitsContract;
import io.ordo.tck.contract.ReclaimContract;
import io.ordo.tck.contract.ResultsContract;
import io.ordo.tck.contract.TaskControlContract;
import io.ordo.tck.contract.TaskEventsContract;
import io.ordo.tck.contract.TaskListingContract;
import io.ordo.tck.contract.RejectContract;
import io.ordo.tck.contract.ReleaseContract;
import io.ordo.tck.contract.RunAtContract;
import io.ordo.tck.contract.SchedulesContract;
import io.ordo.tck.contract.SettingsContract;
import io.ordo.tck.contract.StatsContract;
import io.ordo.tck.contract.StoreCharacteristics;
import io.ordo.tck.contract.TaskTypeAndAttemptsContract;
import org.junit.jupiter.api.Nested;

/**
 * The contract every {@link TaskStore} backend passes: docs/contract.md ("Operations", "Ordering") and the
 * exact rules of docs/semantics.md. A backend's test extends this class, supplies {@link #createStore}
 * and {@link #createGroupStore} and, if its store keeps some promises only in part, declares the ones it
 * keeps with {@link StoreCharacteristics}. Each group of the contract lives in its own class of
 * {@code io.ordo.tck.contract} and runs here as a nested class on the backend's stores; every test
 * runs on a fresh queue with a unique name (docs/testing.md).
 */
public abstract class TaskStoreCompatibilityKit {
    /**
     * A store serving {@code queue} that reads the time from {@code clock}. Called before every test,
     * and again by tests that need a second queue on the same backend.
     */
    protected abstract TaskStore createStore(QueueName queue, VirtualClock clock);

    /**
     * The store of that group of the queue, on the same backend as the store {@link #createStore} made for
     * that queue and clock (docs/groups.md). The group need not exist: the consumer groups' tests create
     * and delete groups through the stores.
     */
    protected abstract TaskStore createGroupStore(QueueName queue, GroupName group, VirtualClock clock);

    @Nested
    class Publish extends PublishContract {
        Publish() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }

    @Nested
    class RunAt extends RunAtContract {
        RunAt() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }

    @Nested
    class Schedules extends SchedulesContract {
        Schedules() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }

    @Nested
    class Consume extends ConsumeContract {
        Consume() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }

    @Nested
    class OrderedPartitions extends OrderedPartitionsContract {
        OrderedPartitions() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }

    @Nested
    class Fairness extends FairnessContract {
        Fairness() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }

    @Nested
    class Ack extends AckContract {
        Ack() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }

    @Nested
    class AckAndConsume extends AckAndConsumeContract {
        AckAndConsume() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }

    @Nested
    class Reject extends RejectContract {
        Reject() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }

    @Nested
    class Fail extends FailContract {
        Fail() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }

    @Nested
    class Release extends ReleaseContract {
        Release() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }

    @Nested
    class BlockPartition extends BlockPartitionContract {
        BlockPartition() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }

    @Nested
    class Heartbeat extends HeartbeatContract {
        Heartbeat() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }

    @Nested
    class Reclaim extends ReclaimContract {
        Reclaim() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }

    @Nested
    class Cancel extends CancelContract {
        Cancel() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }

    @Nested
    class Results extends ResultsContract {
        Results() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }

    @Nested
    class Events extends TaskEventsContract {
        Events() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }

    @Nested
    class TaskControl extends TaskControlContract {
        TaskControl() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }

    @Nested
    class Get extends GetContract {
        Get() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }

    @Nested
    class DeadLetters extends DeadLettersContract {
        DeadLetters() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }

    @Nested
    class DeadLetterCaps extends DeadLetterCapsContract {
        DeadLetterCaps() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }

    @Nested
    class Stats extends StatsContract {
        Stats() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }

    @Nested
    class Inspect extends InspectContract {
        Inspect() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }

    @Nested
    class PauseResume extends PauseResumeContract {
        PauseResume() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }

    @Nested
    class Settings extends SettingsContract {
        Settings() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }

    @Nested
    class ConcurrencyCaps extends ConcurrencyCapsContract {
        ConcurrencyCaps() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }

    @Nested
    class RateLimits extends RateLimitsContract {
        RateLimits() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }

    @Nested
    class TaskTypeAndAttempts extends TaskTypeAndAttemptsContract {
        TaskTypeAndAttempts() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }

    @Nested
    class ConsumerGroups extends ConsumerGroupsContract {
        ConsumerGroups() {
            super(TaskStoreCompatibilityKit.this::createStore, TaskStoreCompatibilityKit.this::createGroupStore);
        }
    }

    @Nested
    class ConsumerGroupsAdmin extends ConsumerGroupsAdminContract {
        ConsumerGroupsAdmin() {
            super(TaskStoreCompatibilityKit.this::createStore, TaskStoreCompatibilityKit.this::createGroupStore);
        }
    }

    @Nested
    class TaskListing extends TaskListingContract {
        TaskListing() {
            super(TaskStoreCompatibilityKit.this::createStore, TaskStoreCompatibilityKit.this::createGroupStore);
        }
    }

    @Nested
    class CompletedListing extends CompletedListingContract {
        CompletedListing() {
            super(TaskStoreCompatibilityKit.this::createStore, TaskStoreCompatibilityKit.this::createGroupStore);
        }
    }

    @Nested
    class Queues extends QueuesContract {
        Queues() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }

    @Nested
    class HostileNamesNeverCollide extends HostileNamesNeverCollideContract {
        HostileNamesNeverCollide() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }

    @Nested
    class BadInput extends BadInputContract {
        BadInput() {
            super(TaskStoreCompatibilityKit.this::createStore);
        }
    }
}
