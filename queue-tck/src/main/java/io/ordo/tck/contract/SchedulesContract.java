package io.ordo.tck.contract;

import io.ordo.domain.Lease;
import io.ordo.domain.MisfirePolicy;
import io.ordo.domain.Partition;
import io.ordo.domain.Schedule;
import io.ordo.domain.Task;
import io.ordo.ports.ScheduleEntry;
import io.ordo.ports.ScheduleFiring;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.PartitionFixture.regularPartition;
import static io.ordo.tck.fixtures.TaskIds.id;
import static org.assertj.core.api.Assertions.assertThat;

/** Recurring schedules kept with the queue: put, list, remove, and firing their due slots once each. */
public abstract class SchedulesContract extends ContractContext {
    private static final Duration HOUR = Duration.ofHours(1);

    protected SchedulesContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    private Schedule.Builder hourly(String id, Partition partition) {
        return Schedule.builder(id, partition, "{\"report\":1}".getBytes(StandardCharsets.UTF_8)).every(HOUR);
    }

    private String slotId(String schedule, long slotMillis) {
        return schedule + "@" + Instant.ofEpochMilli(slotMillis);
    }

    private List<String> takeAll() {
        return consume(workerA(), 1000).stream().map(lease -> lease.id().value()).collect(Collectors.toList());
    }

    @Test
    void a_schedule_is_created_listed_replaced_and_removed() {
        long start = now();
        Schedule first = hourly("nightly", regularPartition()).priority(3).header("kind", "report").build();

        assertThat(store.putSchedule(first)).isTrue();
        assertThat(store.schedules()).containsExactly(new ScheduleEntry(first, start, start - 1));
        assertThat(store.schedules().get(0).lastSlot()).isEmpty();

        advanceMillis(10);
        Schedule replaced = first.toBuilder().priority(7).misfire(MisfirePolicy.catchUp(5)).build();
        assertThat(store.putSchedule(replaced)).isFalse();
        assertThat(store.schedules()).containsExactly(new ScheduleEntry(replaced, start, start - 1));

        Schedule other = Schedule.builder("alpha", regularPartition(), new byte[] {1})
                .cron("0 9 * * 1-5", ZoneId.of("Europe/Berlin")).build();
        store.putSchedule(other);
        assertThat(store.schedules()).extracting(entry -> entry.schedule().id()).containsExactly("alpha", "nightly");

        assertThat(store.removeSchedule("nightly")).isTrue();
        assertThat(store.removeSchedule("nightly")).isFalse();
        assertThat(store.schedules()).extracting(ScheduleEntry::schedule).containsExactly(other);
    }

    @Test
    void bad_schedules_are_refused_naming_the_field_and_nothing_is_written() {
        Partition partition = regularPartition();

        assertInvalid("cron", () -> store.putSchedule(Schedule.builder("s", partition, new byte[0])
                .cron("61 * * * *", ZoneId.of("UTC")).build()));
        assertInvalid("cron", () -> store.putSchedule(Schedule.builder("s", partition, new byte[0])
                .cron("at nine", ZoneId.of("UTC")).build()));
        assertInvalid("cron", () -> Schedule.builder("s", partition, new byte[0]).build());
        assertInvalid("every", () -> Schedule.builder("s", partition, new byte[0]).every(Duration.ofMillis(10)).build());
        assertInvalid("end", () -> hourly("s", partition).start(Instant.ofEpochMilli(now()))
                .end(Instant.ofEpochMilli(now())).build());
        assertInvalid("misfire.maxRuns", () -> MisfirePolicy.catchUp(0));
        assertInvalid("id", () -> store.removeSchedule(""));
        assertThat(store.schedules()).isEmpty();
    }

    @Test
    void a_slot_publishes_its_task_once_however_often_and_by_however_many_it_is_fired() throws Exception {
        Partition partition = regularPartition();
        long start = now();
        store.putSchedule(hourly("hourly", partition).priority(5).header("kind", "report").build());

        assertThat(store.fireDueSchedules()).isEqualTo(new ScheduleFiring(1, 1, 0)); // the anchor is the first slot
        assertThat(store.fireDueSchedules()).isEqualTo(ScheduleFiring.NONE);
        List<Lease> taken = consume(workerA(), 10);
        assertThat(taken).extracting(lease -> lease.id().value()).containsExactly(slotId("hourly", start));
        Task task = taken.get(0).task();
        assertThat(task.partition()).isEqualTo(partition);
        assertThat(task.priority().value()).isEqualTo(5);
        assertThat(new String(task.payload(), StandardCharsets.UTF_8)).isEqualTo("{\"report\":1}");
        assertThat(task.headers()).isEqualTo(Map.of("kind", "report", Schedule.SCHEDULE_HEADER, "hourly",
                Schedule.SLOT_HEADER, Instant.ofEpochMilli(start).toString()));
        store.ack(workerA(), List.of(taken.get(0).id()));

        assertThat(store.fireDueSchedules()).as("the slot's task is gone, the slot stays handled")
                .isEqualTo(ScheduleFiring.NONE);
        advance(HOUR.minusMillis(1));
        assertThat(store.fireDueSchedules()).isEqualTo(ScheduleFiring.NONE);
        advanceMillis(1);
        ExecutorService firers = Executors.newFixedThreadPool(4);
        try {
            List<Future<ScheduleFiring>> firings = firers.invokeAll(List.<Callable<ScheduleFiring>>of(
                    store::fireDueSchedules, store::fireDueSchedules, store::fireDueSchedules, store::fireDueSchedules));
            int created = 0;
            for (Future<ScheduleFiring> firing : firings) {
                created += firing.get().tasksCreated();
            }
            assertThat(created).isEqualTo(1);
        } finally {
            firers.shutdownNow();
        }
        assertThat(takeAll()).containsExactly(slotId("hourly", start + HOUR.toMillis()));
        assertThat(store.schedules().get(0).lastSlot()).contains(Instant.ofEpochMilli(start + HOUR.toMillis()));
        store.ack(workerA(), List.of(id(slotId("hourly", start + HOUR.toMillis()))));
        assertThat(store.fireDueSchedules()).as("whichever firer won advanced the last slot")
                .isEqualTo(ScheduleFiring.NONE);
    }

    @Test
    void missed_slots_follow_the_misfire_policy() {
        long start = now();
        store.putSchedule(hourly("skip", regularPartition()).start(Instant.ofEpochMilli(start + 1)).build());
        store.putSchedule(hourly("once", regularPartition()).start(Instant.ofEpochMilli(start + 1))
                .misfire(MisfirePolicy.runOnce()).build());
        store.putSchedule(hourly("catch-up", regularPartition()).start(Instant.ofEpochMilli(start + 1))
                .misfire(MisfirePolicy.catchUp(3)).build());

        advance(Duration.ofHours(5).plusMinutes(10)); // slots at +0h..+5h (and 1 ms) missed, the latest by 10 minutes

        // all three let due slots pass: skip publishes none of six, once one, catch-up three
        assertThat(store.fireDueSchedules()).isEqualTo(new ScheduleFiring(3, 4, 3));
        long latest = start + 1 + Duration.ofHours(5).toMillis();
        assertThat(takeAll()).containsExactlyInAnyOrder(slotId("once", latest),
                slotId("catch-up", latest - 2 * HOUR.toMillis()), slotId("catch-up", latest - HOUR.toMillis()),
                slotId("catch-up", latest));
        assertThat(store.schedules()).extracting(ScheduleEntry::lastSlotMillis).containsOnly(latest);

        advance(Duration.ofMinutes(50).plusMillis(1)); // the next slot, found on time
        assertThat(store.fireDueSchedules()).isEqualTo(new ScheduleFiring(3, 3, 0));
    }

    @Test
    void catch_up_publishes_the_missed_slots_oldest_first() {
        Partition partition = regularPartition();
        long start = now();
        store.putSchedule(hourly("h", partition).misfire(MisfirePolicy.catchUp(10)).build());

        advance(Duration.ofHours(2));
        assertThat(store.fireDueSchedules()).as("every due slot published: none missed").isEqualTo(new ScheduleFiring(1, 3, 0));

        assertThat(takeAll()).containsExactly(slotId("h", start), slotId("h", start + HOUR.toMillis()),
                slotId("h", start + 2 * HOUR.toMillis()));
    }

    @Test
    void no_slot_fires_before_the_start_or_at_and_after_the_end() {
        long start = now() + Duration.ofHours(2).toMillis();
        store.putSchedule(hourly("window", regularPartition()).misfire(MisfirePolicy.catchUp(100))
                .start(Instant.ofEpochMilli(start)).end(Instant.ofEpochMilli(start + 2 * HOUR.toMillis())).build());

        advance(Duration.ofHours(1));
        assertThat(store.fireDueSchedules()).isEqualTo(ScheduleFiring.NONE);
        advance(Duration.ofHours(10));
        assertThat(store.fireDueSchedules()).isEqualTo(new ScheduleFiring(1, 2, 0));
        assertThat(takeAll()).containsExactly(slotId("window", start), slotId("window", start + HOUR.toMillis()));
        advance(Duration.ofHours(10));
        assertThat(store.fireDueSchedules()).isEqualTo(ScheduleFiring.NONE);
    }

    @Test
    void a_cron_schedule_fires_at_its_wall_time_in_its_zone() {
        // the virtual clock starts at 2026-01-01T00:00:00Z, 01:00 in Berlin
        store.putSchedule(Schedule.builder("nine", regularPartition(), new byte[0])
                .cron("0 9 * * *", ZoneId.of("Europe/Berlin")).build());

        advance(Duration.ofHours(8).minusMillis(1));
        assertThat(store.fireDueSchedules()).isEqualTo(ScheduleFiring.NONE);
        advanceMillis(1);
        assertThat(store.fireDueSchedules()).isEqualTo(new ScheduleFiring(1, 1, 0));
        assertThat(takeAll()).containsExactly("nine@2026-01-01T08:00:00Z");
        assertThat(store.get(id("nine@2026-01-01T08:00:00Z"))).isPresent();
    }
}
