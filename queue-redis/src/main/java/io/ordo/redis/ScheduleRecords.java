package io.ordo.redis;

import io.ordo.domain.MisfirePolicy;
import io.ordo.domain.Partition;
import io.ordo.domain.Schedule;
import io.ordo.ports.QueueDataException;
import io.ordo.ports.ScheduleEntry;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Map;

/**
 * A schedule as the queue's {@code schedules} hash keeps it: its anchor and last slot handled (two signed
 * 8-byte integers, the only part the Lua side reads), then its definition, which only Java reads
 * (docs/redis-design.md, "Schedules").
 */
final class ScheduleRecords {
    private static final int VERSION = 1;
    /** Where the definition starts in a record: after anchor and last slot. */
    static final int DEFINITION_OFFSET = 16;

    private ScheduleRecords() {
    }

    /** The definition of a schedule, as {@code schedule_put} stores it after the anchor and last slot. */
    static byte[] definition(Schedule schedule) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeUTF(schedule.id());
            out.writeBoolean(schedule.cron() != null);
            if (schedule.cron() != null) {
                out.writeUTF(schedule.cron());
                out.writeUTF(schedule.zone().getId());
            } else {
                out.writeLong(schedule.every().toMillis());
            }
            out.writeUTF(schedule.partition().code());
            out.writeInt(schedule.priority().value());
            out.writeByte(schedule.headers().size());
            for (Map.Entry<String, String> header : schedule.headers().entrySet()) {
                out.writeUTF(header.getKey());
                out.writeUTF(header.getValue());
            }
            out.writeUTF(schedule.misfire().kind().name());
            out.writeInt(schedule.misfire().maxRuns());
            out.writeLong(schedule.start() == null ? -1 : schedule.start().toEpochMilli());
            out.writeLong(schedule.end() == null ? -1 : schedule.end().toEpochMilli());
            byte[] payload = schedule.payload();
            out.writeInt(payload.length);
            out.write(payload);
        } catch (IOException e) {
            throw new IllegalStateException("writing to memory cannot fail", e);
        }
        return bytes.toByteArray();
    }

    /** A stored record (anchor, last slot, definition) as an entry. */
    static ScheduleEntry decode(String id, byte[] record) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(record))) {
            long anchor = in.readLong();
            long last = in.readLong();
            int version = in.readUnsignedByte();
            if (version != VERSION) {
                throw new QueueDataException("schedule " + id + " is stored in format " + version + ", this Ordo reads "
                        + VERSION);
            }
            String storedId = in.readUTF();
            Schedule.Builder builder;
            String cron = null;
            ZoneId zone = null;
            Duration every = null;
            if (in.readBoolean()) {
                cron = in.readUTF();
                zone = ZoneId.of(in.readUTF());
            } else {
                every = Duration.ofMillis(in.readLong());
            }
            Partition partition = Partition.of(in.readUTF());
            int priority = in.readInt();
            int headers = in.readUnsignedByte();
            String[] pairs = new String[headers * 2];
            for (int i = 0; i < pairs.length; i++) {
                pairs[i] = in.readUTF();
            }
            MisfirePolicy misfire = new MisfirePolicy(MisfirePolicy.Kind.valueOf(in.readUTF()), in.readInt());
            long start = in.readLong();
            long end = in.readLong();
            byte[] payload = new byte[in.readInt()];
            in.readFully(payload);
            builder = Schedule.builder(storedId, partition, payload).priority(priority).misfire(misfire)
                    .start(start < 0 ? null : Instant.ofEpochMilli(start)).end(end < 0 ? null : Instant.ofEpochMilli(end));
            builder = cron != null ? builder.cron(cron, zone) : builder.every(every);
            for (int i = 0; i < pairs.length; i += 2) {
                builder.header(pairs[i], pairs[i + 1]);
            }
            return new ScheduleEntry(builder.build(), anchor, last);
        } catch (IOException | RuntimeException e) {
            if (e instanceof QueueDataException data) {
                throw data;
            }
            throw new QueueDataException("schedule " + id + " is not a record Ordo wrote: " + e.getMessage());
        }
    }

    /** The SHA-1 (lower-case hex) of a record's definition, as Lua's {@code redis.sha1hex} gives it. */
    static String definitionDigest(byte[] record) {
        try {
            java.security.MessageDigest sha1 = java.security.MessageDigest.getInstance("SHA-1");
            sha1.update(record, DEFINITION_OFFSET, record.length - DEFINITION_OFFSET);
            return Hex.encode(sha1.digest());
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK always has SHA-1", e);
        }
    }
}
