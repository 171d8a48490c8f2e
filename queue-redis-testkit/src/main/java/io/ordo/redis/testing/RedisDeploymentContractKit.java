package io.ordo.redis.testing;

import io.ordo.domain.GroupName;
import io.ordo.domain.QueueName;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.tck.TaskStoreCompatibilityKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole contract kit on a {@link RedisDeployment} (a cluster, a TLS server), connected as Ordo's
 * least-privilege ACL user. One client serves the whole class (a cluster client learns the slot map
 * once); every test still gets a queue of its own. At the end, the server must not have refused a
 * single command: the ACL rule list is complete for everything the kit does.
 */
@ExtendWith(RedisDeploymentExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class RedisDeploymentContractKit extends TaskStoreCompatibilityKit {
    private final RedisDeployment deployment;
    private RedisTaskStoreFactory factory;

    protected RedisDeploymentContractKit(RedisDeployment deployment) {
        this.deployment = deployment;
    }

    /** The backend's store factory. */
    protected abstract RedisTaskStoreFactory createFactory(RedisOptions options);

    @Override
    protected TaskStore createStore(QueueName queue, VirtualClock clock) {
        return factory().forQueue(queue, clock);
    }

    @Override
    protected TaskStore createGroupStore(QueueName queue, GroupName group, VirtualClock clock) {
        return factory().forGroup(queue, group, clock);
    }

    /** The class's one factory, connected as the least-privilege user. */
    protected final RedisTaskStoreFactory factory() {
        if (factory == null) {
            factory = createFactory(deployment.leastPrivilegeUser());
        }
        return factory;
    }

    @AfterAll
    void theLeastPrivilegeUserWasNeverRefused() {
        if (factory != null) {
            factory.close();
        }
        assertThat(deployment.aclDenials()).as("commands the ACL refused (ACL LOG)").isEmpty();
    }
}
