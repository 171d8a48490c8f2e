package io.ordo.lettuce.scratch;

import io.ordo.domain.QueueName;
import io.ordo.lettuce.LettuceTaskStores;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.redis.testing.RedisCluster;
import org.junit.jupiter.api.Test;

class ScratchTimingTest {
    @Test
    void timing() {
        long t0 = System.nanoTime();
        try (RedisCluster cluster = RedisCluster.start()) {
            long t1 = System.nanoTime();
            System.out.println("cluster start ms " + (t1 - t0) / 1_000_000);
            var options = io.ordo.redis.RedisOptions.create(cluster.uri());
            try (RedisTaskStoreFactory factory = LettuceTaskStores.factory(options)) {
                long t2 = System.nanoTime();
                System.out.println("factory ms " + (t2 - t1) / 1_000_000);
                Thread main = Thread.currentThread();
                Thread dumper = new Thread(() -> {
                    try { Thread.sleep(1500); } catch (InterruptedException e) { return; }
                    for (StackTraceElement el : main.getStackTrace()) System.out.println("  at " + el);
                });
                dumper.start();
                factory.forQueue(QueueName.of("a")).stats();
                long t3 = System.nanoTime();
                System.out.println("first call ms " + (t3 - t2) / 1_000_000);
                factory.forQueue(QueueName.of("b")).stats();
                System.out.println("second call ms " + (System.nanoTime() - t3) / 1_000_000);
            }
            System.out.println("denials " + cluster.aclDenials());
        }
    }
}
