package io.ordo.cli;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.TaskId;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.redis.testing.RedisServer;
import io.ordo.redis.testing.RedisServerExtension;
import io.ordo.systemtest.RedisClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/** What the CLI prints from task data cannot act on the terminal: no escape sequence, bell, CR or line break gets through. */
@ExtendWith(RedisServerExtension.class)
class TerminalSafetyTest {
    private static final String CLEAR_SCREEN = "\u001b[2J";
    private static final String SET_TITLE = "\u001b]0;pwned\u0007";
    private static final String FAKE_LINE = "\r\nordo: all tasks done\u2028";
    private static final String REVERSED = "\u202egnp.exe";

    @Test
    void get_and_dead_list_escape_control_characters_from_payloads_reasons_and_headers(RedisServer redis) {
        String queue = "terminal-" + UUID.randomUUID();
        try (TaskStoreFactory stores = RedisClient.JEDIS.open(redis.uri())) {
            TaskStore store = stores.forQueue(QueueName.of(queue));
            store.configure(store.settings().toBuilder().maxAttempts(1).build());
            store.publish(List.of(NewTask.builder(Partition.regular("p"),
                            ("{\"a\":1}" + CLEAR_SCREEN + SET_TITLE + FAKE_LINE + REVERSED).getBytes(UTF_8))
                    .id("evil-1").header("note", SET_TITLE + FAKE_LINE).build()));
            store.publish(List.of(NewTask.builder(Partition.regular("p"), "{}".getBytes(UTF_8)).id("evil-2").build()));
            ConsumerId consumer = ConsumerId.of("c");
            store.consume(consumer, 1, Duration.ZERO);
            store.fail(consumer, List.of(TaskId.of("evil-1")), "boom" + CLEAR_SCREEN + FAKE_LINE + SET_TITLE + REVERSED);
        }
        CliRun get = CliRun.of("get", "--backend", "jedis", "--redis", redis.uri(), "--queue", queue, "evil-1");
        CliRun dead = CliRun.of("dead", "list", "--backend", "jedis", "--redis", redis.uri(), "--queue", queue);

        assertThat(get.exitCode()).as(get.err()).isZero();
        assertThat(dead.exitCode()).as(dead.err()).isZero();
        for (CliRun run : List.of(get, dead)) {
            assertThat(run.out()).doesNotContain("\u001b", "\u0007", "\r", "\u2028", "\u202e");
            assertThat(run.outLines()).noneMatch(line -> line.startsWith("ordo:"));
        }
        assertThat(get.outLines()).contains("payload      {\"a\":1}\\x1b[2J\\x1b]0;pwned\\x07\\r\\nordo: all tasks done\\u2028\\u202egnp.exe",
                "header note  \\x1b]0;pwned\\x07\\r\\nordo: all tasks done\\u2028");
        assertThat(get.outLines()).anySatisfy(line -> assertThat(line).startsWith("last error").contains("boom\\x1b[2J\\r\\n"));
        assertThat(dead.outLines()).hasSize(2);
        assertThat(dead.outLines().get(0)).startsWith("evil-1  p  attempts 1  died ").contains("boom\\x1b[2J\\r\\nordo: all tasks done");
    }

    @Test
    void an_error_message_quoting_input_is_escaped() {
        CliRun run = CliRun.of("get", "evil" + CLEAR_SCREEN + "\u0007");

        assertThat(run.err()).doesNotContain("\u001b", "\u0007");
        assertThat(run.errLines()).singleElement().asString().startsWith("ordo: ");
    }
}
