package io.ordo.lettuce;

import io.ordo.domain.Lease;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.ports.ReclaimReport;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;

import static io.ordo.lettuce.ChunkCostMeasurement.WORKER;

/**
 * Instructions the server spends per item in the chunked operations (ChunkCostMeasurement's workloads at
 * {@code ordo.measure.items} items, 100,000 unless told), counted by callgrind over all of an operation's calls:
 * promotion (a consume meeting every task fallen due at once, then taking 100), redrive all, purge all, reclaim
 * of a dead consumer holding every task, and the overdue reclaim timing out every task of a live one. Each
 * figure names its dump, for {@code callgrind_annotate}. The chunks are their full counts: the ~1 ms each may
 * spend is lifted (see {@link #countFromHere}). A measurement, not a test: it runs only with
 * {@code -Dordo.measure.callgrind=true} and needs valgrind.
 * {@code mvn -q -B test -pl adapter-lettuce -am -Dtest=ChunkInstructionMeasurement -Dordo.measure.callgrind=true
 * -Dsurefire.failIfNoSpecifiedTests=false}
 */
@EnabledIfSystemProperty(named = "ordo.measure.callgrind", matches = "true")
class ChunkInstructionMeasurement {
    private static final int ITEMS = Integer.getInteger("ordo.measure.items", 100_000);
    private static final String BUDGET = "O.CHUNK_MICROS = 1000\n";
    private static final String LIFTED = "O.CHUNK_MICROS = 1000000000\n";

    @Test
    void promotion_redrive_and_purge() throws Exception {
        measure((callgrind, store, clock) -> {
            ChunkCostMeasurement.publish(store, ITEMS, Duration.ofSeconds(1));
            clock.advance(Duration.ofSeconds(1));
            countFromHere(callgrind);
            List<Lease> first = store.consume(WORKER, 100, Duration.ZERO);
            report(callgrind, "promotion: a consume making " + ITEMS + " due tasks ready, then taking " + first.size());
            store.ack(WORKER, first.stream().map(Lease::id).toList());

            ChunkCostMeasurement.failEverything(store);
            countFromHere(callgrind);
            long redriven = store.redriveAll();
            report(callgrind, "redrive all of " + redriven + " dead letters");

            ChunkCostMeasurement.failEverything(store);
            countFromHere(callgrind);
            long purged = store.purgeAllDeadLetters();
            report(callgrind, "purge all of " + purged + " dead letters");
        });
    }

    @Test
    void reclaim_of_a_dead_consumer() throws Exception {
        measureReclaim(null, Duration.ofMinutes(5),
                report -> "reclaim of a dead consumer holding " + report.returned() + " tasks");
    }

    @Test
    void reclaim_timing_out_a_live_consumers_tasks() throws Exception {
        measureReclaim(QueueSettings.builder().processingTimeout(Duration.ofSeconds(10))
                        .heartbeatTtl(Duration.ofHours(1)).maxAttempts(10).build(), Duration.ofSeconds(11),
                report -> "reclaim timing out " + report.timedOut() + " tasks of a live consumer");
    }

    /** One consumer takes every task; once {@code later} has passed, reclaim takes them back (settings: null for the defaults). */
    private static void measureReclaim(QueueSettings settings, Duration later, Function<ReclaimReport, String> label)
            throws Exception {
        measure((callgrind, store, clock) -> {
            if (settings != null) {
                store.configure(settings);
            }
            ChunkCostMeasurement.publish(store, ITEMS, Duration.ZERO);
            ChunkCostMeasurement.holdEverything(store);
            clock.advance(later);
            countFromHere(callgrind);
            report(callgrind, label.apply(store.reclaim()));
        });
    }

    private interface Measured {
        void run(Callgrind callgrind, TaskStore store, VirtualClock clock) throws Exception;
    }

    private static void measure(Measured measured) throws Exception {
        try (Callgrind callgrind = Callgrind.start();
             RedisTaskStoreFactory factory = LettuceTaskStores.factory(RedisOptions.builder(callgrind.server().uri())
                     .commandTimeout(Duration.ofMinutes(10)).build())) {
            VirtualClock clock = new VirtualClock();
            measured.run(callgrind, factory.forQueue(QueueName.of("measure"), clock), clock);
        }
    }

    /**
     * Zeroes the counters, with the ~1 ms a chunk may spend lifted first: callgrind runs the server some fifty
     * times slower, so every chunk would stop at its first time check, having read more than it applied (a dead
     * consumer's reclaim reads 25 tasks and took back 8). Lifted, each chunk is its full count, as at full speed
     * the calls mostly are, and the count does not depend on how busy the machine is.
     */
    private static void countFromHere(Callgrind callgrind) throws Exception {
        callgrind.server().replaceInLoadedLibraries(BUDGET, LIFTED);
        callgrind.zero();
    }

    private static void report(Callgrind callgrind, String label) throws Exception {
        long instructions = callgrind.instructions();
        System.out.printf("%s: %,d instructions per item (%s)%n", label, instructions / ITEMS, callgrind.newestDump());
    }
}
