package io.ordo.redis.testing;

import io.ordo.domain.Partition;
import io.ordo.domain.Priority;
import io.ordo.domain.ReclaimCause;
import io.ordo.domain.RetryPolicy;
import io.ordo.domain.Task;
import io.ordo.domain.TaskId;
import io.ordo.redis.RedisLibrary;
import io.ordo.redis.TaskRecords;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The record codec in Java ({@link TaskRecords}) and the one in {@code record.lua} agree, both ways: run on
 * a real server with the library's own constants and shared files, records pass hex-encoded.
 */
@ExtendWith(RedisServerExtension.class)
class TaskRecordsLuaRoundTripTest {
    /** The library's shared part (its files and constants) as the server loads it: up to the first registration. */
    private static final String SHARED = sharedPart(RedisLibrary.CURRENT.code());
    private static final String HEX_HELPERS = """
            local function unhex(h) return (h:gsub('..', function(c) return string.char(tonumber(c, 16)) end)) end
            local function hex(s) return (s:gsub('.', function(c) return string.format('%02x', string.byte(c)) end)) end
            """;
    /** Lua decodes a record, answers its fields and its record written again. */
    private static final String LUA_DECODE = SHARED + HEX_HELPERS + """
            local r = O.decode(unhex(ARGV[1]))
            return { hex(O.encode(r)), r.state, r.seq, r.published, r.priority, r.attempts, r.due, r.ready,
                r.error or false, r.cause or false, r.at or false, r.code, O.max_attempts(r, 0) }
            """;
    /** Lua writes a record from its fields. */
    private static final String LUA_ENCODE = SHARED + HEX_HELPERS + """
            local r = { state = tonumber(ARGV[1]), seq = tonumber(ARGV[2]), published = tonumber(ARGV[3]),
                priority = tonumber(ARGV[4]), attempts = tonumber(ARGV[5]), due = tonumber(ARGV[6]),
                ready = tonumber(ARGV[7]), at = tonumber(ARGV[10]), tail = unhex(ARGV[11]) }
            if ARGV[8] ~= '' then r.error = string.sub(ARGV[8], 2) end -- '=' and the error, or none
            if ARGV[9] ~= '' then r.cause = tonumber(ARGV[9]) end
            return hex(O.encode(r))
            """;
    private static final long T = 1_700_000_000_000L;

    static Stream<TaskRecords.Stored> records() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("trace", "ab-12");
        headers.put("ключ", "значение ✓");
        byte[] binary = {0, 1, (byte) 0xff, (byte) 0x80, 10, 13};
        return Stream.of(
                waiting(task("fresh", Partition.regular("p"), 0, Map.of(), new byte[0], 1, 0, T, T, T, null, null)),
                waiting(task("retried", Partition.ordered("acct-ü"), -7, headers, binary, 42, 3, T, T + 5, T + 9,
                        "bank said «no»", null)),
                waiting(task("orphan", Partition.regular("p"), Priority.MAX, headers, binary, 281_474_976_710_655L,
                        1000, T, T + 1, T + 1, "consumer w-1 stopped heartbeating", ReclaimCause.HOLDER_STOPPED_HEARTBEATING)),
                dead(task("hung", Partition.ordered("o"), Priority.MIN, Map.of(), binary, 7, 5, T, T, T,
                        "processing timed out after 60000 ms", ReclaimCause.PROCESSING_TIMED_OUT), T + 60_000),
                dead(task("failed", Partition.regular("p"), 3, Map.of("k", ""), "{}".getBytes(StandardCharsets.UTF_8),
                        8, 1, T, T + 100, T + 100, "", null), T + 7),
                waiting(withExtras(task("typed", Partition.regular("p"), 0, Map.of(), new byte[0], 9, 0, T, T, T, null, null),
                        "deposit", 0, null)),
                waiting(withExtras(task("own-limit", Partition.ordered("acct-ü"), -7, headers, binary, 10, 2, T, T, T + 3,
                        "no", null), null, 2, null)),
                waiting(withExtras(task("own-backoff", Partition.regular("p"), 0, Map.of(), binary, 11, 0, T, T, T, null, null),
                        null, 0, new RetryPolicy(Duration.ofMillis(250), 1.5, Duration.ofSeconds(90), 0.125))),
                dead(withExtras(task("all-three", Partition.ordered("o"), 5, headers, "{}".getBytes(StandardCharsets.UTF_8), 12, 1000,
                        T, T, T, "consumer w-2 stopped heartbeating", ReclaimCause.HOLDER_STOPPED_HEARTBEATING),
                        "Überweisung 💸", 1000, RetryPolicy.DEFAULT), T + 9));
    }

    /**
     * A record written before tasks had a type or their own attempts and backoff: its header count holds only
     * the count, and it reads as a task with none of them, in Java and in Lua.
     */
    @Test
    void a_record_without_extras_reads_as_a_task_without_type_or_overrides(RedisServer server) {
        // flags 0, seq 1, publishedAt T; code "p"; one header "k"="v"; payload "{}"
        byte[] record = HexFormat.of().parseHex("00" + "000000000001" + Long.toHexString(0x1_0000_0000_0000L | T).substring(1)
                + "000170" + "01" + "00016b" + "000176" + "7b7d");

        Task task = TaskRecords.decode("old".getBytes(StandardCharsets.UTF_8), record).task();

        assertThat(task.headers()).containsExactly(Map.entry("k", "v"));
        assertThat(task.payload()).isEqualTo("{}".getBytes(StandardCharsets.UTF_8));
        assertThat(task.type()).isNull();
        assertThat(task.maxAttempts()).isZero();
        assertThat(task.retryPolicy()).isNull();
        List<?> lua = (List<?>) server.command("EVAL", LUA_DECODE, "0", HexFormat.of().formatHex(record));
        assertThat(lua.get(0)).as("Lua's record").isEqualTo(HexFormat.of().formatHex(record));
        assertThat(lua.get(12)).as("Lua's attempts limit of the task").isEqualTo(0L);
    }

    @ParameterizedTest
    @MethodSource("records")
    void a_record_java_writes_lua_reads_field_by_field_and_writes_back_byte_for_byte(TaskRecords.Stored stored,
                                                                                   RedisServer server) {
        byte[] record = TaskRecords.encode(stored);
        Task task = stored.task();

        List<?> lua = (List<?>) server.command("EVAL", LUA_DECODE, "0", HexFormat.of().formatHex(record));

        assertThat(lua.get(0)).as("Lua's record").isEqualTo(HexFormat.of().formatHex(record));
        List<Object> expected = new ArrayList<>(Arrays.asList(null, (long) stored.state(), task.seq(), task.publishedAt(),
                (long) task.priority().value(), (long) task.attempts(), task.dueAt(), task.readyAt(), task.lastError(),
                task.reclaimCause() == null ? null : (long) task.reclaimCause().code(),
                stored.state() == TaskRecords.STATE_DEAD ? stored.at() : null, task.partition().code(),
                (long) task.maxAttempts()));
        assertThat(lua.subList(1, lua.size())).isEqualTo(expected.subList(1, expected.size()));
        assertThat(TaskRecords.decode(id(task), record)).isEqualTo(stored);
    }

    @ParameterizedTest
    @MethodSource("records")
    void a_record_lua_writes_java_reads_as_the_task_and_writes_byte_for_byte(TaskRecords.Stored stored,
                                                                           RedisServer server) {
        Task task = stored.task();
        String luaRecord = (String) server.command("EVAL", LUA_ENCODE, "0", Integer.toString(stored.state()),
                Long.toString(task.seq()), Long.toString(task.publishedAt()), Integer.toString(task.priority().value()),
                Integer.toString(task.attempts()), Long.toString(task.dueAt()), Long.toString(task.readyAt()),
                task.lastError() == null ? "" : "=" + task.lastError(),
                task.reclaimCause() == null ? "" : Integer.toString(task.reclaimCause().code()),
                Long.toString(stored.at()), HexFormat.of().formatHex(tail(task)));

        byte[] record = HexFormat.of().parseHex(luaRecord);
        assertThat(TaskRecords.decode(id(task), record)).isEqualTo(stored);
        assertThat(record).isEqualTo(TaskRecords.encode(stored));
    }

    private static String sharedPart(String library) {
        int firstRegistration = library.lastIndexOf("\n-- ", library.indexOf("redis.register_function"));
        return library.substring(library.indexOf('\n') + 1, firstRegistration + 1);
    }

    private static Task task(String id, Partition partition, int priority, Map<String, String> headers, byte[] payload,
                             long seq, int attempts, long publishedAt, long dueAt, long readyAt, String lastError,
                             ReclaimCause cause) {
        return new Task(TaskId.of(id), partition, Priority.of(priority), payload, headers, seq, attempts,
                publishedAt, dueAt, readyAt, lastError, cause);
    }

    /** The task with a type, its own attempts limit and backoff (each absent when null or 0). */
    private static Task withExtras(Task task, String type, int maxAttempts, RetryPolicy retryPolicy) {
        return new Task(task.id(), task.partition(), task.priority(), task.payload(), task.headers(), task.seq(),
                task.attempts(), task.publishedAt(), task.dueAt(), task.readyAt(), task.lastError(), task.reclaimCause(),
                type, maxAttempts, retryPolicy);
    }

    private static TaskRecords.Stored waiting(Task task) {
        return new TaskRecords.Stored(task, TaskRecords.STATE_WAITING, null, 0);
    }

    private static TaskRecords.Stored dead(Task task, long deadAt) {
        return new TaskRecords.Stored(task, TaskRecords.STATE_DEAD, null, deadAt);
    }

    private static byte[] id(Task task) {
        return task.id().value().getBytes(StandardCharsets.UTF_8);
    }

    /** The record's tail (code, headers, extras, payload) as Java writes it last: the part Lua keeps as it is. */
    private static byte[] tail(Task task) {
        int length = 2 + utf8(task.partition().code()) + 1 + task.payload().length;
        if (task.type() != null || task.maxAttempts() != 0 || task.retryPolicy() != null) {
            length += 1 + (task.type() == null ? 0 : 2 + utf8(task.type())) + (task.maxAttempts() == 0 ? 0 : 2)
                    + (task.retryPolicy() == null ? 0 : 28);
        }
        for (Map.Entry<String, String> header : task.headers().entrySet()) {
            length += 4 + utf8(header.getKey()) + utf8(header.getValue());
        }
        byte[] record = TaskRecords.encode(waiting(task));
        return Arrays.copyOfRange(record, record.length - length, record.length);
    }

    private static int utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
