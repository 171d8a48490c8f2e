package io.ordo.lettuce;

import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.TaskId;
import io.ordo.ports.TaskStore;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.util.ArrayList;
import java.util.List;

@EnabledIfSystemProperty(named = "ordo.tmpfill", matches = "true")
class TmpFillTest {
    @Test
    void fill() {
        int partitions = Integer.getInteger("p", 10);
        try (RedisTaskStoreFactory factory = LettuceTaskStores.factory(RedisOptions.create("redis://127.0.0.1:16390"))) {
            TaskStore store = factory.forQueue(QueueName.of("bench"));
            List<NewTask> batch = new ArrayList<>();
            for (int i = 0; i < 100_000; i++) {
                batch.add(NewTask.builder(Partition.of("p-" + (i % partitions)), new byte[100]).id(TaskId.of("t" + i)).build());
                if (batch.size() == 1000) { store.publish(batch); batch.clear(); }
            }
        }
    }
}
