package io.ordo.schedules;

import io.ordo.domain.InvalidInputException;
import io.ordo.domain.MisfirePolicy;
import io.ordo.domain.Partition;
import io.ordo.domain.Schedule;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScheduleSlotsTest {
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    private static Schedule.Builder schedule() {
        return Schedule.builder("s", Partition.regular("p"), new byte[0]);
    }

    private static long at(String instant) {
        return Instant.parse(instant).toEpochMilli();
    }

    private static List<String> slots(ScheduleSlots.Due due) {
        return due.slots().stream().map(slot -> Instant.ofEpochMilli(slot).toString()).collect(Collectors.toList());
    }

    @Test
    void a_cron_slot_is_due_at_its_minute_and_not_before() {
        Schedule daily = schedule().cron("0 9 * * *", ZoneId.of("UTC")).build();
        long anchor = at("2026-03-01T00:00:00Z");

        assertThat(ScheduleSlots.due(daily, anchor, anchor - 1, at("2026-03-01T08:59:59.999Z"))).isEmpty();
        ScheduleSlots.Due due = ScheduleSlots.due(daily, anchor, anchor - 1, at("2026-03-01T09:00:00Z")).orElseThrow();
        assertThat(slots(due)).containsExactly("2026-03-01T09:00:00Z");
        assertThat(due.newLast()).isEqualTo(at("2026-03-01T09:00:00Z"));
        assertThat(ScheduleSlots.due(daily, anchor, due.newLast(), at("2026-03-01T09:00:30Z"))).isEmpty();
    }

    @Test
    void misfire_policies_decide_what_missed_slots_publish() {
        Schedule.Builder hourly = schedule().cron("0 * * * *", ZoneId.of("UTC"));
        long anchor = at("2026-03-01T00:30:00Z");
        long now = at("2026-03-01T05:10:00Z"); // slots 01:00..05:00 missed, the latest 10 minutes late

        ScheduleSlots.Due skip = ScheduleSlots.due(hourly.misfire(MisfirePolicy.skip()).build(), anchor, anchor - 1, now)
                .orElseThrow();
        ScheduleSlots.Due once = ScheduleSlots.due(hourly.misfire(MisfirePolicy.runOnce()).build(), anchor, anchor - 1,
                now).orElseThrow();
        ScheduleSlots.Due catchUp = ScheduleSlots.due(hourly.misfire(MisfirePolicy.catchUp(3)).build(), anchor,
                anchor - 1, now).orElseThrow();

        assertThat(slots(skip)).isEmpty();
        assertThat(slots(once)).containsExactly("2026-03-01T05:00:00Z");
        assertThat(slots(catchUp)).containsExactly("2026-03-01T03:00:00Z", "2026-03-01T04:00:00Z", "2026-03-01T05:00:00Z");
        assertThat(List.of(skip.newLast(), once.newLast(), catchUp.newLast())).containsOnly(at("2026-03-01T05:00:00Z"));
        assertThat(List.of(skip.missed(), once.missed(), catchUp.missed())).as("slots let pass").containsOnly(true);
        ScheduleSlots.Due catchUpAll = ScheduleSlots.due(hourly.misfire(MisfirePolicy.catchUp(5)).build(), anchor,
                anchor - 1, now).orElseThrow();
        assertThat(slots(catchUpAll)).hasSize(5);
        assertThat(catchUpAll.missed()).as("every due slot published").isFalse();
    }

    @Test
    void an_interval_counts_from_its_anchor_and_stops_at_its_end() {
        long anchor = at("2026-03-01T00:00:00Z");
        Schedule every = schedule().every(Duration.ofMinutes(10)).misfire(MisfirePolicy.catchUp(100))
                .end(Instant.parse("2026-03-01T00:30:00Z")).build();

        assertThat(slots(ScheduleSlots.due(every, anchor, anchor - 1, anchor).orElseThrow()))
                .containsExactly("2026-03-01T00:00:00Z");
        assertThat(slots(ScheduleSlots.due(every, anchor, anchor, at("2026-03-01T05:00:00Z")).orElseThrow()))
                .containsExactly("2026-03-01T00:10:00Z", "2026-03-01T00:20:00Z");
        assertThat(ScheduleSlots.due(every, anchor, at("2026-03-01T00:20:00Z"), at("2026-03-01T05:00:00Z"))).isEmpty();
    }

    @Test
    void in_berlin_a_slot_in_the_skipped_hour_does_not_occur_and_one_in_the_repeated_hour_occurs_at_both_instants() {
        Schedule halfPastTwo = schedule().cron("30 2 * * *", BERLIN).misfire(MisfirePolicy.catchUp(10)).build();
        // 2026-03-29: 02:00 CET jumps to 03:00 CEST, there is no 02:30
        long spring = at("2026-03-28T00:00:00Z");
        assertThat(slots(ScheduleSlots.due(halfPastTwo, spring, spring - 1, at("2026-03-30T12:00:00Z")).orElseThrow()))
                .containsExactly("2026-03-28T01:30:00Z", "2026-03-30T00:30:00Z");
        // 2026-10-25: 03:00 CEST falls back to 02:00 CET, 02:30 happens twice (00:30Z and 01:30Z): both are slots
        long autumn = at("2026-10-24T12:00:00Z");
        assertThat(slots(ScheduleSlots.due(halfPastTwo, autumn, autumn - 1, at("2026-10-25T12:00:00Z")).orElseThrow()))
                .containsExactly("2026-10-25T00:30:00Z", "2026-10-25T01:30:00Z");
    }

    @Test
    void every_minute_across_the_repeated_hour_runs_each_real_minute_once() {
        Schedule hourly = schedule().cron("0 * * * *", BERLIN).misfire(MisfirePolicy.catchUp(10)).build();
        long anchor = at("2026-10-24T23:30:00Z");

        assertThat(slots(ScheduleSlots.due(hourly, anchor, anchor - 1, at("2026-10-25T02:30:00Z")).orElseThrow()))
                .containsExactly("2026-10-25T00:00:00Z", "2026-10-25T01:00:00Z", "2026-10-25T02:00:00Z");
    }

    @Test
    void a_cron_expression_that_does_not_parse_is_refused_naming_cron() {
        assertThatThrownBy(() -> ScheduleSlots.check(schedule().cron("61 * * * *", BERLIN).build()))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("cron"));
        assertThatThrownBy(() -> ScheduleSlots.check(schedule().cron("every day", BERLIN).build()))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("cron"));
    }
}
