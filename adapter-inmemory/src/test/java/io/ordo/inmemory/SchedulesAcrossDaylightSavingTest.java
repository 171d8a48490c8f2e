package io.ordo.inmemory;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.Schedule;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Europe/Berlin cron schedule fired every minute of virtual time across both daylight-saving changes of
 * 2026, as a worker's reaper would: the skipped hour has no slot, the repeated hour has its wall times twice
 * (docs/semantics.md, "Schedules").
 */
class SchedulesAcrossDaylightSavingTest {
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    private List<String> firedBetween(String cron, String from, String to) {
        VirtualClock clock = new VirtualClock(Instant.parse(from).toEpochMilli());
        TaskStore store = new InMemoryTaskStoreFactory(clock).forQueue(QueueName.of("dst"));
        store.putSchedule(Schedule.builder("s", Partition.regular("p"), new byte[0]).cron(cron, BERLIN).build());
        List<String> slots = new ArrayList<>();
        while (clock.millis() < Instant.parse(to).toEpochMilli()) {
            clock.advance(Duration.ofMinutes(1));
            store.fireDueSchedules();
            for (Lease lease : store.consume(ConsumerId.of("w"), 100, Duration.ZERO)) {
                slots.add(lease.task().headers().get(Schedule.SLOT_HEADER));
                store.ack(ConsumerId.of("w"), List.of(lease.id()));
            }
        }
        return slots;
    }

    @Test
    void the_wall_time_in_the_skipped_spring_hour_has_no_slot() {
        assertThat(firedBetween("30 2 * * *", "2026-03-27T12:00:00Z", "2026-03-30T12:00:00Z"))
                .containsExactly("2026-03-28T01:30:00Z", "2026-03-30T00:30:00Z");
    }

    @Test
    void the_wall_time_in_the_repeated_autumn_hour_has_both_of_its_instants() {
        assertThat(firedBetween("30 2 * * *", "2026-10-23T12:00:00Z", "2026-10-26T12:00:00Z"))
                .containsExactly("2026-10-24T00:30:00Z", "2026-10-25T00:30:00Z", "2026-10-25T01:30:00Z",
                        "2026-10-26T01:30:00Z");
    }

    @Test
    void an_hourly_schedule_runs_once_per_real_hour_through_both_changes() {
        assertThat(firedBetween("0 * * * *", "2026-03-29T00:30:00Z", "2026-03-29T03:30:00Z"))
                .containsExactly("2026-03-29T01:00:00Z", "2026-03-29T02:00:00Z", "2026-03-29T03:00:00Z");
        assertThat(firedBetween("0 * * * *", "2026-10-24T23:30:00Z", "2026-10-25T02:30:00Z"))
                .containsExactly("2026-10-25T00:00:00Z", "2026-10-25T01:00:00Z", "2026-10-25T02:00:00Z");
    }
}
