package io.ordo.inmemory;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.GroupName;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.TaskId;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the contract cannot see from one thread: a publish reaches every group the queue has at that moment
 * or none, however groups are created meanwhile, and the views' monitors never deadlock.
 */
class InMemoryConsumerGroupsTest {
    private static final QueueName QUEUE = QueueName.of("orders");
    private final InMemoryTaskStoreFactory factory = new InMemoryTaskStoreFactory(new VirtualClock());

    @Test
    void a_queue_whose_only_data_is_a_group_is_known() {
        factory.forQueue(QUEUE).createGroup(GroupName.of("billing"));
        factory.forGroup(QueueName.of("asked-only"), GroupName.of("billing")).groups();

        assertThat(factory.knownQueues()).containsExactly(QUEUE);
    }

    @Test
    void publishes_racing_the_creation_of_groups_reach_every_group_there_is_or_none() throws Exception {
        int publishers = 3;
        int batches = 200;
        int groups = 8;
        TaskStore queue = factory.forQueue(QUEUE);
        ExecutorService threads = Executors.newFixedThreadPool(publishers + 3);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (int p = 0; p < publishers; p++) {
                int publisher = p;
                TaskStore through = publisher == 0 ? queue : factory.forGroup(QUEUE, GroupName.of("g0"));
                work.add(threads.submit(() -> {
                    for (int b = 0; b < batches; b++) {
                        List<NewTask> batch = new ArrayList<>();
                        for (int i = 0; i < 3; i++) {
                            batch.add(NewTask.builder(Partition.regular("p" + publisher), new byte[] {1})
                                    .id(publisher + "-" + b + "-" + i).build());
                        }
                        through.publish(batch);
                    }
                }));
            }
            work.add(threads.submit(() -> {
                for (int g = 0; g < groups; g++) {
                    queue.createGroup(GroupName.of("g" + g));
                    queue.configure(QueueSettings.builder().maxAttempts(3 + g).build());
                    Thread.sleep(2);
                }
                return null;
            }));
            work.add(threads.submit(() -> { // a consumer of a group, taking what it can meanwhile
                for (int i = 0; i < 200; i++) {
                    if (queue.groups().contains(GroupName.of("g0"))) {
                        TaskStore g0 = factory.forGroup(QUEUE, GroupName.of("g0"));
                        List<Lease> taken = g0.consume(ConsumerId.of("w"), 10, Duration.ofMillis(1));
                        g0.release(ConsumerId.of("w"), taken.stream().map(Lease::id).toList());
                    }
                }
                return null;
            }));
            for (Future<?> done : work) {
                done.get(60, TimeUnit.SECONDS); // a deadlock fails here
            }
        } finally {
            threads.shutdownNow();
        }

        Set<String> own = idsIn(queue);
        List<Set<String>> received = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            received.add(idsIn(factory.forGroup(QUEUE, GroupName.of("g" + g))));
        }
        Set<String> all = new HashSet<>(own);
        all.addAll(received.get(0));
        assertThat(all.size()).as("every task in the own view or the first group").isEqualTo(publishers * batches * 3);
        assertThat(own.size() + received.get(0).size()).as("none in both").isEqualTo(all.size());
        for (int g = 1; g < groups; g++) {
            assertThat(received.get(g - 1).containsAll(received.get(g))).as("g" + (g - 1) + " got all g" + g + " got")
                    .isTrue();
        }
        for (int g = 0; g < groups; g++) {
            for (String id : received.get(g)) {
                String batch = id.substring(0, id.lastIndexOf('-'));
                assertThat(received.get(g).containsAll(List.of(batch + "-0", batch + "-1", batch + "-2")))
                        .as("batch " + batch + " whole in g" + g).isTrue();
            }
        }
    }

    /** Every task the view holds, taken by one reader (a consume takes 1,000 at most). */
    private static Set<String> idsIn(TaskStore view) {
        Set<String> ids = new HashSet<>();
        List<Lease> taken;
        while (!(taken = view.consume(ConsumerId.of("reader"), 1000, Duration.ZERO)).isEmpty()) {
            taken.stream().map(Lease::id).map(TaskId::value).forEach(ids::add);
        }
        return ids;
    }
}
