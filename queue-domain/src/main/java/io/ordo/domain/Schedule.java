package io.ordo.domain;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A recurring task kept with the queue (docs/semantics.md, "Schedules"): when it falls due (a cron
 * expression read in a time zone, or a fixed interval), the task each slot publishes, what happens to
 * slots missed, and an optional window. Valid once it exists, except the cron expression's syntax, which
 * the store checks when the schedule is put (field {@code cron}).
 *
 * @param id       1..100 characters, as a name; a slot's task is {@code <id>@<slot instant>}
 * @param cron     a five-field Unix cron expression (minute hour day-of-month month day-of-week), or null
 * @param zone     the zone the cron expression is read in (null with an interval)
 * @param every    the fixed interval, 1 s..366 d, or null; slots at {@code start} (or when the schedule was
 *                 first put) plus whole intervals
 * @param start    no slot before this instant (inclusive), or null
 * @param end      no slot at or after this instant, or null
 */
public record Schedule(String id, String cron, ZoneId zone, Duration every, Partition partition, Priority priority,
                       byte[] payload, Map<String, String> headers, MisfirePolicy misfire, Instant start,
                       Instant end) {
    public static final int MAX_ID_LENGTH = 100;
    public static final int MAX_CRON_LENGTH = 200;
    public static final Duration MIN_EVERY = Duration.ofSeconds(1);
    public static final Duration MAX_EVERY = Duration.ofDays(366);
    public static final int MAX_PAYLOAD_BYTES = 1024 * 1024;
    /** Headers every slot's task carries besides the template's: the schedule's id and the slot's instant. */
    public static final String SCHEDULE_HEADER = "ordo-schedule";
    public static final String SLOT_HEADER = "ordo-slot";
    public static final int MAX_HEADERS = NewTask.MAX_HEADERS - 2;

    public Schedule {
        Validate.text("id", id, MAX_ID_LENGTH);
        if ((cron == null) == (every == null)) {
            throw new InvalidInputException("cron", "give a cron expression or an interval (every), one of the two");
        }
        if (cron != null) {
            Validate.text("cron", cron, MAX_CRON_LENGTH);
            Validate.notNull("zone", zone);
        } else {
            if (zone != null) {
                throw new InvalidInputException("zone", "is for a cron expression, not an interval");
            }
            if (every.compareTo(MIN_EVERY) < 0 || every.compareTo(MAX_EVERY) > 0) {
                throw new InvalidInputException("every", "must be between " + MIN_EVERY + " and " + MAX_EVERY
                        + ", was " + every);
            }
            every = Duration.ofMillis(every.toMillis());
        }
        Validate.notNull("partition", partition);
        Validate.notNull("priority", priority);
        Validate.notNull("payload", payload);
        if (payload.length > MAX_PAYLOAD_BYTES) {
            throw new InvalidInputException("payload", "at most " + MAX_PAYLOAD_BYTES + " bytes, was " + payload.length);
        }
        Validate.notNull("headers", headers);
        if (headers.size() > MAX_HEADERS) {
            throw new InvalidInputException("headers", "at most " + MAX_HEADERS + " entries, was " + headers.size());
        }
        for (String name : headers.keySet()) {
            if (SCHEDULE_HEADER.equals(name) || SLOT_HEADER.equals(name)) {
                throw new InvalidInputException("headers", "'" + name + "' is set by the schedule");
            }
        }
        Validate.notNull("misfire", misfire);
        start = instant("start", start);
        end = instant("end", end);
        if (start != null && end != null && !end.isAfter(start)) {
            throw new InvalidInputException("end", "must be after start (" + start + "), was " + end);
        }
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        payload = payload.clone();
        // the task a slot publishes is checked as any task is (header names and values)
        new NewTask(TaskId.of("check"), partition, priority, payload, Duration.ZERO, headers);
    }

    private static Instant instant(String field, Instant value) {
        if (value == null) {
            return null;
        }
        if (value.isBefore(Instant.EPOCH) || !value.isBefore(NewTask.LATEST_RUN_AT)) {
            throw new InvalidInputException(field, "must lie in 1970-01-01T00:00:00Z.." + NewTask.LATEST_RUN_AT
                    + " (exclusive), was " + value);
        }
        return Instant.ofEpochMilli(value.toEpochMilli());
    }

    public static Builder builder(String id, Partition partition, byte[] payload) {
        return new Builder(id, partition, payload);
    }

    @Override
    public byte[] payload() {
        return payload.clone();
    }

    /** The id of the task the slot at {@code slotMillis} publishes: the schedule's id, {@code @}, the slot's instant. */
    public TaskId taskIdOf(long slotMillis) {
        return TaskId.of(id + "@" + Instant.ofEpochMilli(slotMillis));
    }

    /** The task the slot at {@code slotMillis} publishes, due at once. */
    public NewTask taskOf(long slotMillis) {
        Map<String, String> all = new LinkedHashMap<>(headers);
        all.put(SCHEDULE_HEADER, id);
        all.put(SLOT_HEADER, Instant.ofEpochMilli(slotMillis).toString());
        return new NewTask(taskIdOf(slotMillis), partition, priority, payload, Duration.ZERO, all);
    }

    public Builder toBuilder() {
        Builder builder = new Builder(id, partition, payload);
        builder.cron = cron;
        builder.zone = zone;
        builder.every = every;
        builder.priority = priority;
        builder.headers.putAll(headers);
        builder.misfire = misfire;
        builder.start = start;
        builder.end = end;
        return builder;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Schedule that && id.equals(that.id) && Objects.equals(cron, that.cron)
                && Objects.equals(zone, that.zone) && Objects.equals(every, that.every)
                && partition.equals(that.partition) && priority.equals(that.priority)
                && Arrays.equals(payload, that.payload) && headers.equals(that.headers) && misfire.equals(that.misfire)
                && Objects.equals(start, that.start) && Objects.equals(end, that.end);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, cron, zone, every, partition, priority, Arrays.hashCode(payload), headers, misfire,
                start, end);
    }

    @Override
    public String toString() {
        return "Schedule[id=" + id + (cron != null ? ", cron=" + cron + " " + zone : ", every=" + every)
                + ", partition=" + partition + ", priority=" + priority.value() + ", payload=" + payload.length
                + " bytes, headers=" + headers + ", misfire=" + misfire + ", start=" + start + ", end=" + end + "]";
    }

    /** Fluent construction: default priority, no headers, misfire {@code skip}, no window; a cron or an interval. */
    public static final class Builder {
        private final String id;
        private final Partition partition;
        private final byte[] payload;
        private String cron;
        private ZoneId zone;
        private Duration every;
        private Priority priority = Priority.DEFAULT;
        private final Map<String, String> headers = new LinkedHashMap<>();
        private MisfirePolicy misfire = MisfirePolicy.skip();
        private Instant start;
        private Instant end;

        private Builder(String id, Partition partition, byte[] payload) {
            this.id = id;
            this.partition = partition;
            this.payload = payload;
        }

        public Builder cron(String expression, ZoneId zone) {
            this.cron = expression;
            this.zone = zone;
            this.every = null;
            return this;
        }

        public Builder every(Duration interval) {
            this.every = interval;
            this.cron = null;
            this.zone = null;
            return this;
        }

        public Builder priority(int priority) {
            this.priority = Priority.of(priority);
            return this;
        }

        public Builder header(String name, String value) {
            headers.put(name, value);
            return this;
        }

        public Builder misfire(MisfirePolicy misfire) {
            this.misfire = misfire;
            return this;
        }

        public Builder start(Instant start) {
            this.start = start;
            return this;
        }

        public Builder end(Instant end) {
            this.end = end;
            return this;
        }

        public Schedule build() {
            return new Schedule(id, cron, zone, every, partition, priority, payload, headers, misfire, start, end);
        }
    }
}
