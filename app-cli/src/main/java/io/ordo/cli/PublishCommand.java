package io.ordo.cli;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import io.ordo.domain.InvalidInputException;
import io.ordo.domain.Partition;
import io.ordo.domain.Priority;
import io.ordo.domain.PublishRules;
import io.ordo.domain.QueueName;
import io.ordo.ports.Clock;
import io.ordo.ports.PayloadCodec;
import io.ordo.ports.PayloadCodecException;
import io.ordo.ports.PublishOutcome;
import io.ordo.ports.PublishReceipt;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.runtime.Publication;
import io.ordo.runtime.Publisher;
import io.ordo.runtime.codec.JacksonPayloadCodec;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Publishes JSON payloads: one given as an argument, or one per line of a JSON-lines file.
 *
 * <pre>
 * ordo publish --queue orders --partition account-42 --ordered --id deposit-1 '{"cents":100}'
 * ordo publish --queue emails --partition welcome --priority 5 --delay 30s --file signups.jsonl
 * </pre>
 */
@Command(name = "publish", mixinStandardHelpOptions = true,
        description = {"Publishes tasks: one JSON payload, or one per line of a JSON-lines file.",
                "A file is published in atomic batches of up to 10,000 lines, in file order."},
        footer = {"", "Examples:",
                "  ordo publish --queue orders --partition account-42 --ordered \\",
                "      --id deposit-1 '{\"cents\":100}'",
                "  ordo publish --queue emails --partition welcome --delay 30s \\",
                "      --file signups.jsonl"})
final class PublishCommand implements Callable<Integer> {
    @Mixin
    BackendOptions backend;

    @Option(names = "--queue", paramLabel = "NAME", defaultValue = QueueCommand.DEFAULT_QUEUE,
            description = "The queue to publish to (default: ${DEFAULT-VALUE}).")
    String queue;

    @Option(names = "--partition", required = true, paramLabel = "NAME", description = "The partition of the tasks.")
    String partition;

    @Option(names = "--ordered", description = "The partition is ordered: one batch at a time, strictly in order.")
    boolean ordered;

    @Option(names = "--priority", paramLabel = "N", defaultValue = "0",
            description = "Higher goes first, -1000..1000 (default: ${DEFAULT-VALUE}).")
    int priority;

    @Option(names = "--delay", paramLabel = "DURATION", defaultValue = "0s", converter = DurationConverter.class,
            description = "Due this long after publish, e.g. 500ms, 30s, 5m, 2h (default: ${DEFAULT-VALUE}).")
    Duration delay;

    @Option(names = "--id", paramLabel = "ID",
            description = "The task's id (its idempotency key); generated when absent. Not with --file.")
    String id;

    @ArgGroup(multiplicity = "1")
    Input input;

    @Spec
    CommandSpec spec;

    private final PayloadCodec codec = new JacksonPayloadCodec();

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
        List<Publication<JsonNode>> publications = publications(payloads());
        List<PublishReceipt> receipts = new ArrayList<>(publications.size());
        try (TaskStoreFactory stores = backend.open(Clock.system())) {
            Publisher<JsonNode> publisher = new Publisher<>(stores.forQueue(queueName), codec);
            for (int from = 0; from < publications.size(); from += PublishRules.MAX_BATCH) {
                int to = Math.min(publications.size(), from + PublishRules.MAX_BATCH);
                receipts.addAll(publisher.publishAll(publications.subList(from, to)));
            }
        }
        print(queueName, publications, receipts);
        backend.noteWhenNothingPersists();
        return ExitCodes.OK;
    }

    private List<Publication<JsonNode>> publications(List<JsonNode> payloads) {
        Partition target = ordered ? Partition.ordered(partition) : Partition.regular(partition);
        List<Publication<JsonNode>> publications = new ArrayList<>(payloads.size());
        for (JsonNode payload : payloads) {
            Publication<JsonNode> publication = Publication.of(target, payload).withPriority(priority).withDelay(delay);
            publications.add(id == null ? publication : publication.withId(id));
        }
        return publications;
    }

    private List<JsonNode> payloads() {
        if (input.payload != null) {
            return List.of(parse(input.payload, "payload"));
        }
        String source = input.file.toString().equals("-") ? "stdin" : input.file.toString();
        List<JsonNode> payloads = new ArrayList<>();
        try (BufferedReader lines = open(input.file)) {
            int number = 0;
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                number++;
                if (!line.isBlank()) {
                    payloads.add(parse(line, source + " line " + number));
                }
            }
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), "cannot read " + source + ": " + describe(e));
        }
        if (payloads.isEmpty()) {
            throw new InvalidInputException(source, "holds no payload (one JSON value a line)");
        }
        return payloads;
    }

    private static BufferedReader open(Path file) throws IOException {
        return file.toString().equals("-")
                ? new BufferedReader(new InputStreamReader(System.in, UTF_8))
                : Files.newBufferedReader(file, UTF_8);
    }

    private JsonNode parse(String json, String where) {
        try {
            return codec.decode(json.getBytes(UTF_8), JsonNode.class);
        } catch (PayloadCodecException e) {
            String reason = e.getCause() instanceof JacksonException jackson ? jackson.getOriginalMessage() : e.getMessage();
            throw new InvalidInputException(where, "is not JSON: " + reason, e);
        }
    }

    private static String describe(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file";
        }
        return e instanceof AccessDeniedException ? "permission denied" : e.getMessage();
    }

    private void print(QueueName queueName, List<Publication<JsonNode>> sent, List<PublishReceipt> receipts) {
        PrintWriter out = spec.commandLine().getOut();
        long created = receipts.stream().filter(receipt -> receipt.outcome() == PublishOutcome.CREATED).count();
        for (int i = 0; i < receipts.size(); i++) {
            Publication<JsonNode> publication = sent.get(i);
            out.printf("%-9s  %s  %s%s%s%n", Labels.of(receipts.get(i).outcome()), receipts.get(i).id(),
                    publication.partition(),
                    publication.priority().equals(Priority.DEFAULT) ? "" : "  priority " + publication.priority().value(),
                    publication.delay().isZero() ? "" : "  delay " + readable(publication.delay()));
        }
        out.printf("published %d task%s to queue %s: %d created, %d duplicate%n",
                receipts.size(), receipts.size() == 1 ? "" : "s", queueName, created, receipts.size() - created);
        out.flush();
    }

    private static String readable(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
    }
}
