package io.ordo.cli;

import io.ordo.cli.publish.ByteLines;
import io.ordo.cli.publish.JsonPayload;
import io.ordo.domain.InvalidInputException;
import io.ordo.domain.NewTask;
import io.ordo.domain.OrdoException;
import io.ordo.domain.Partition;
import io.ordo.domain.Priority;
import io.ordo.domain.PublishRules;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.Validate;
import io.ordo.domain.Labels;
import io.ordo.ports.Clock;
import io.ordo.ports.PublishOutcome;
import io.ordo.ports.PublishReceipt;
import io.ordo.ports.QueueCapacityException;
import io.ordo.ports.TaskPublishing;
import io.ordo.ports.TaskStoreFactory;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Publishes JSON payloads: one given as an argument, or one per line of a JSON-lines file. The bytes
 * given are the bytes published; they are only checked to be JSON (docs/decisions/cli-publish-file.md).
 *
 * <pre>
 * ordo publish --queue orders --partition account-42 --ordered --id deposit-1 '{"cents":100}'
 * ordo publish --queue emails --partition welcome --priority 5 --delay 30s --file signups.jsonl
 * ordo publish --queue reports --partition daily --at 2026-12-24T09:00:00Z '{"day":"2026-12-24"}'
 * ordo publish --queue orders --partition account-42 --type Deposit --max-attempts 3 '{"cents":100}'
 * </pre>
 */
@Command(name = "publish", mixinStandardHelpOptions = true,
        description = {"Publishes tasks: one JSON payload, or one per line of a JSON-lines file.",
                "Payloads are published byte for byte as given; JSON null is refused.",
                "A file is checked whole (JSON, sizes) before anything is published, then published in",
                "atomic batches of up to 10,000 lines, in file order; stdin (--file -) is published as lines",
                "arrive. If a batch fails, the error says which lines were published (exit 1)."},
        footer = {"", "Examples:",
                "  ordo publish --queue orders --partition account-42 --ordered \\",
                "      --id deposit-1 '{\"cents\":100}'",
                "  ordo publish --queue emails --partition welcome --delay 30s \\",
                "      --file signups.jsonl",
                "  ordo publish --queue orders --partition account-42 --type Deposit \\",
                "      --max-attempts 3 '{\"cents\":100}'"})
final class PublishCommand implements Callable<Integer> {
    /** A batch also stops at this many payload bytes, so a file of large payloads is held in bounded memory. */
    static final int MAX_BATCH_BYTES = 4 * 1024 * 1024;
    private static final Pattern TASK_FIELD = Pattern.compile("tasks\\[(\\d+)](.*)");

    @Mixin
    BackendOptions backend;

    @Option(names = "--queue", paramLabel = "NAME", defaultValue = QueueCommand.DEFAULT_QUEUE,
            description = "The queue to publish to (default: ${DEFAULT-VALUE}).")
    String queue;

    @Option(names = "--partition", required = true, paramLabel = "NAME",
            description = "The partition of the tasks; '!NAME' is the ordered partition NAME, as ordo prints it.")
    String partition;

    @Option(names = "--ordered", description = "The partition is ordered: one batch at a time, strictly in order.")
    boolean ordered;

    @Option(names = "--priority", paramLabel = "N", defaultValue = "0",
            description = "Higher goes first, -1000..1000 (default: ${DEFAULT-VALUE}).")
    int priority;

    @Option(names = "--delay", paramLabel = "DURATION", defaultValue = "0s", converter = DurationConverter.class,
            description = "Due this long after publish, e.g. 500ms, 30s, 5m, 2h (default: ${DEFAULT-VALUE}).")
    Duration delay;

    @Option(names = "--at", paramLabel = "INSTANT", converter = InstantConverter.class,
            description = "Due at this instant by the queue's clock, e.g. 2026-12-24T09:00:00Z; at once if past."
                    + " Instead of --delay.")
    Instant at;

    @Option(names = "--type", paramLabel = "NAME",
            description = "The tasks' type: a routing worker hands each task to its type's handler (docs/routing.md).")
    String type;

    @Option(names = "--max-attempts", paramLabel = "N",
            description = "Deliveries each task may have before it becomes a dead letter, 1..1000, in place of the "
                    + "queue's setting.")
    Integer maxAttempts;

    @Option(names = "--task-timeout", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "How long one delivery may be processed before the queue takes it back though its worker "
                    + "lives, at least 1s, in place of the queue's processing timeout (docs/task-control.md).")
    Duration timeout;

    @Option(names = "--id", paramLabel = "ID",
            description = "The task's id (its idempotency key); generated when absent. Not with --file.")
    String id;

    @ArgGroup(multiplicity = "1")
    Input input;

    @Spec
    CommandSpec spec;

    /** The lines being read, for a batch to ask whether more are at hand. */
    private ByteLines lines;

    /** Exactly one source of payloads. */
    static final class Input {
        @Parameters(paramLabel = "PAYLOAD", description = "One JSON payload, e.g. '{\"cents\":100}'.")
        String payload;

        @Option(names = "--file", paramLabel = "FILE", description = "A JSON-lines file, one payload a line; - reads stdin.")
        Path file;
    }

    @Override
    public Integer call() {
        if (id != null && input.file != null) {
            throw new ParameterException(spec.commandLine(), "--id names a single task; it cannot be used with --file");
        }
        QueueName queueName = QueueName.of(queue);
        Partition target = Partitions.fromOptions(partition, ordered);
        task(target, new byte[0]).build(); // --priority, --delay, --at, --type, --max-attempts, --task-timeout: checked before the backend is opened
        try (TaskStoreFactory stores = backend.openWithinTimeout(Clock.system())) {
            TaskPublishing store = stores.forQueue(queueName);
            QueueSettings settings = store.settings(); // the limits, read before any write
            Tally tally = input.payload != null
                    ? publishOne(store, settings, target)
                    : publishFile(store, settings, target);
            out().printf("published %d task%s to queue %s: %d created, %d duplicate%n", tally.published,
                    tally.published == 1 ? "" : "s", queueName, tally.created, tally.published - tally.created);
            out().flush();
        }
        backend.noteWhenNothingPersists();
        return ExitCodes.OK;
    }

    private Tally publishOne(TaskPublishing store, QueueSettings settings, Partition target) {
        byte[] payload = input.payload.getBytes(UTF_8);
        checkPayload(payload, "payload", settings);
        NewTask.Builder task = task(target, payload);
        if (id != null) {
            task.id(id);
        }
        Tally tally = new Tally();
        print(store.publish(List.of(task.build())), tally);
        return tally;
    }

    private NewTask.Builder task(Partition target, byte[] payload) {
        NewTask.Builder task = NewTask.builder(target, payload).priority(priority).delay(delay).type(type);
        if (maxAttempts != null) { // 0 is refused too: to NewTask it means "the queue's"
            task.maxAttempts(Validate.range("maxAttempts", maxAttempts, 1, QueueSettings.MAX_ATTEMPTS_LIMIT));
        }
        if (timeout != null) {
            task.timeout(timeout);
        }
        return at == null ? task : task.runAt(at);
    }

    private void checkPayload(byte[] payload, String where, QueueSettings settings) {
        if (payload.length > settings.maxPayloadBytes()) {
            throw new InvalidInputException(where, "is " + payload.length + " bytes, the queue allows at most "
                    + settings.maxPayloadBytes() + " (ordo settings --max-payload-bytes)");
        }
        JsonPayload.check(payload, where);
    }

    /**
     * A file is read twice: once to check every line, so bad input writes nothing, and once to publish.
     * Stdin and other pipes cannot be read twice: each batch is checked before it is written, and a bad
     * line after the first write is reported with the lines that were published.
     */
    private Tally publishFile(TaskPublishing store, QueueSettings settings, Partition target) {
        boolean stdin = input.file.toString().equals("-");
        String source = stdin ? "stdin" : input.file.toString();
        // a pipe given by name (--file <(producer), /dev/stdin) can be read once only: read it as stdin is
        boolean once = stdin || (Files.exists(input.file) && !Files.isRegularFile(input.file));
        if (!once) {
            int payloads = readLines(source, settings, (line, payload) -> { });
            if (payloads == 0) {
                throw new InvalidInputException(source, "holds no payload (one JSON value a line)");
            }
        }
        Batches batches = new Batches(store, source, target, once);
        try {
            int payloads = readLines(source, settings, batches::add);
            batches.flush();
            if (payloads == 0) {
                throw new InvalidInputException(source, "holds no payload (one JSON value a line)");
            }
        } catch (InvalidInputException | ParameterException e) {
            throw batches.published == 0 ? e : batches.partial(e.getMessage(), false);
        }
        return batches.tally;
    }

    private interface LineSink {
        void accept(int line, byte[] payload) throws IOException;
    }

    /** Reads the source's lines, checks each and hands the non-blank ones on; the number of payloads. */
    private int readLines(String source, QueueSettings settings, LineSink sink) {
        int payloads = 0;
        try (ByteLines lines = new ByteLines(open(input.file), settings.maxPayloadBytes())) {
            this.lines = lines;
            for (byte[] line = lines.next(); line != null; line = lines.next()) {
                if (isBlank(line)) {
                    continue;
                }
                checkPayload(line, source + " line " + lines.number(), settings);
                sink.accept(lines.number(), line);
                payloads++;
            }
        } catch (ByteLines.LineTooLong e) {
            throw new InvalidInputException(source + " line " + e.line(), e.getMessage() + ", the queue allows at most "
                    + settings.maxPayloadBytes() + " (ordo settings --max-payload-bytes)");
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), "cannot read " + source + ": " + describe(e));
        }
        return payloads;
    }

    /** Lines gathered into atomic batches, each published whole; what was published is known exactly. */
    private final class Batches {
        final TaskPublishing store;
        final String source;
        final Partition target;
        /** Read once, as it arrives: a batch also goes out when nothing more is at hand. */
        final boolean streaming;
        final List<NewTask> tasks = new ArrayList<>();
        final List<Integer> lineNumbers = new ArrayList<>();
        final Tally tally = new Tally();
        int bytes;
        int published;
        int firstLine;
        int lastPublishedLine;

        Batches(TaskPublishing store, String source, Partition target, boolean streaming) {
            this.store = store;
            this.source = source;
            this.target = target;
            this.streaming = streaming;
        }

        void add(int line, byte[] payload) throws IOException {
            if (firstLine == 0) {
                firstLine = line;
            }
            tasks.add(task(target, payload).build());
            lineNumbers.add(line);
            bytes += payload.length;
            if (tasks.size() == PublishRules.MAX_BATCH || bytes >= MAX_BATCH_BYTES || (streaming && !lines.moreAtHand())) {
                flush();
            }
        }

        void flush() {
            if (tasks.isEmpty()) {
                return;
            }
            List<PublishReceipt> receipts;
            try {
                receipts = store.publish(tasks);
            } catch (InvalidInputException e) {
                RuntimeException named = atLine(e);
                throw published == 0 ? named : partial(named.getMessage(), false);
            } catch (QueueCapacityException e) {
                throw published == 0 ? e : partial(e.getMessage(), false); // refused before anything was written
            } catch (OrdoException e) {
                throw partial(e.getMessage(), true);
            }
            print(receipts, tally);
            published += tasks.size();
            lastPublishedLine = lineNumbers.get(lineNumbers.size() - 1);
            tasks.clear();
            lineNumbers.clear();
            bytes = 0;
        }

        /** The store names a task by its place in the batch: say which line it came from. */
        private RuntimeException atLine(InvalidInputException e) {
            Matcher task = TASK_FIELD.matcher(e.field());
            if (!task.matches() || Integer.parseInt(task.group(1)) >= lineNumbers.size()) {
                return e;
            }
            int line = lineNumbers.get(Integer.parseInt(task.group(1)));
            return new InvalidInputException(source + " line " + line + task.group(2), e.problem());
        }

        /** What stopped the run, which lines were published and, for a batch in flight, which may have been. */
        OrdoException partial(String problem, boolean batchInFlight) {
            StringBuilder message = new StringBuilder(problem).append("; ");
            message.append(published == 0 ? "nothing was published"
                    : source + " lines " + firstLine + "-" + lastPublishedLine + " were published (" + published
                    + " task" + (published == 1 ? "" : "s") + ")");
            if (batchInFlight && !lineNumbers.isEmpty()) {
                message.append(", lines ").append(lineNumbers.get(0)).append("-")
                        .append(lineNumbers.get(lineNumbers.size() - 1))
                        .append(" may or may not have been (their batch was in flight)");
                message.append(", no line after ").append(lineNumbers.get(lineNumbers.size() - 1)).append(" was");
            } else {
                message.append(", no line after ").append(lastPublishedLine).append(" was");
            }
            return new PartialPublishException(message.toString());
        }
    }

    /** Some lines were published, the rest not: exit 1, with the lines named. */
    static final class PartialPublishException extends OrdoException {
        private static final long serialVersionUID = 1L;

        PartialPublishException(String message) {
            super(message);
        }
    }

    private static boolean isBlank(byte[] line) {
        for (byte b : line) {
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }

    private static InputStream open(Path file) throws IOException {
        if (file.toString().equals("-")) {
            return System.in;
        }
        // a FileInputStream tells how much a pipe holds (available()); a channel's stream cannot
        boolean pipe = Files.exists(file) && !Files.isRegularFile(file);
        return pipe ? new FileInputStream(file.toFile()) : Files.newInputStream(file);
    }

    private static String describe(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file";
        }
        return e instanceof AccessDeniedException ? "permission denied" : e.getMessage();
    }

    private static final class Tally {
        long published;
        long created;
    }

    private void print(List<PublishReceipt> receipts, Tally tally) {
        PrintWriter out = out();
        for (PublishReceipt receipt : receipts) {
            tally.published++;
            if (receipt.outcome() == PublishOutcome.CREATED) {
                tally.created++;
            }
            out.printf("%-9s  %s  %s%s%s%s%s%s%n", Labels.of(receipt.outcome()), TerminalText.escape(receipt.id()),
                    TerminalText.escape(Partitions.fromOptions(partition, ordered)),
                    type == null ? "" : "  type " + TerminalText.escape(type),
                    priority == Priority.DEFAULT.value() ? "" : "  priority " + priority,
                    delay.isZero() ? "" : "  delay " + readable(delay), at == null ? "" : "  at " + at,
                    maxAttempts == null ? "" : "  max attempts " + maxAttempts);
        }
        out.flush();
    }

    private PrintWriter out() {
        return spec.commandLine().getOut();
    }

    private static String readable(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
    }
}
