package io.ordo.cli;

import io.ordo.domain.InvalidInputException;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.RateLimit;
import io.ordo.ports.QueueAdmin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Prints a queue's settings and changes those given; every consumer uses them from its next operation on.
 *
 * <pre>
 * ordo settings --backend lettuce --queue orders --max-attempts 3 --processing-timeout 5m
 * </pre>
 */
@Command(name = "settings", mixinStandardHelpOptions = true,
        description = {"Prints a queue's settings, after changing those given. They are kept with the queue:",
                "every worker and client uses them from its next operation on."},
        footer = {"", "Examples:", "  ordo settings --backend lettuce --queue orders",
                "  ordo settings --backend lettuce --queue orders --max-attempts 3 --processing-timeout 5m",
                "  ordo settings --backend lettuce --queue mail --partition-concurrency 2 --queue-concurrency 50",
                "  ordo settings --backend lettuce --queue mail --partition-concurrency-override bulk=8",
                "  ordo settings --backend lettuce --queue mail --partition-rate-limit 10/1s:20",
                "  ordo settings --backend lettuce --queue orders --dead-letter-max-count 100000 --dead-letter-max-age 14d"})
final class SettingsCommand extends QueueCommand {
    @Option(names = "--max-attempts", paramLabel = "N",
            description = "Deliveries before a failing or reclaimed task becomes a dead letter (default "
                    + QueueSettings.DEFAULT_MAX_ATTEMPTS + ").")
    Integer maxAttempts;

    @Option(names = "--processing-timeout", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Take a task back from a live worker held longer than this; 0 turns it off (the default).")
    Duration processingTimeout;

    @Option(names = "--heartbeat-ttl", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "A worker silent this long is dead and its tasks are returned (default "
                    + QueueSettings.DEFAULT_HEARTBEAT_TTL_SECONDS + "s).")
    Duration heartbeatTtl;

    @Option(names = "--dedup-window", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "How long an acked task's id stays a duplicate; 0 turns it off (the default).")
    Duration dedupWindow;

    @Option(names = "--max-payload-bytes", paramLabel = "N",
            description = "The largest payload a publish accepts (default "
                    + QueueSettings.DEFAULT_MAX_PAYLOAD_MIB + " MiB).")
    Integer maxPayloadBytes;

    @Option(names = "--partition-concurrency", paramLabel = "N",
            description = "The most tasks of one regular partition in flight at once; 0 turns the cap off (the default).")
    Integer partitionConcurrency;

    @Option(names = "--partition-concurrency-override", paramLabel = "CODE=N",
            description = "A cap of its own for one regular partition (repeatable); N = 0 removes it.")
    List<String> partitionConcurrencyOverrides;

    @Option(names = "--queue-concurrency", paramLabel = "N",
            description = "The most tasks of the queue in flight at once, over all workers; 0 turns the cap off (the default).")
    Integer queueConcurrency;

    @Option(names = "--queue-rate-limit", paramLabel = "RATE",
            description = "Deliveries of the queue: PERMITS/DURATION[:BURST] (e.g. 100/1s, 5/1m:20) or off (the default).")
    String queueRateLimit;

    @Option(names = "--partition-rate-limit", paramLabel = "RATE",
            description = "Deliveries of each partition: PERMITS/DURATION[:BURST] or off (the default).")
    String partitionRateLimit;

    @Option(names = "--dead-letter-max-count", paramLabel = "N",
            description = "The most dead letters kept: past it the oldest are deleted as tasks die; 0 turns the cap off"
                    + " (the default).")
    Integer deadLetterMaxCount;

    @Option(names = "--dead-letter-max-age", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Dead letters that died this long ago are deleted (as tasks die, and by the workers' reaper);"
                    + " 0 turns it off (the default).")
    Duration deadLetterMaxAge;

    @Option(names = "--result-retention", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "How long an acked task is kept as completed, with its result, for get to show"
                    + " (docs/task-control.md); 0 turns it off (the default: an ack deletes).")
    Duration resultRetention;

    @Option(names = "--max-result-bytes", paramLabel = "N",
            description = "The largest result a completed task keeps (default 16384, at most 1 MiB).")
    Integer maxResultBytes;

    @Option(names = "--event-log-length", paramLabel = "N",
            description = "How many of the latest events (completed, failed, dead-lettered, cancelled) the queue's"
                    + " event log keeps, for ordo events to follow (docs/task-control.md); 0 turns it off (the default).")
    Integer eventLogLength;

    private static final Pattern RATE = Pattern.compile("(\\d{1,9})/([^:]+)(?::(\\d{1,9}))?");

    @Override
    public Integer call() {
        QueueSettings settings = onStore((QueueAdmin store) -> {
            QueueSettings current = store.settings();
            if (!changesAnything()) {
                return current;
            }
            QueueSettings.Builder changed = current.toBuilder();
            if (maxAttempts != null) {
                changed.maxAttempts(maxAttempts);
            }
            if (processingTimeout != null) {
                changed.processingTimeout(processingTimeout);
            }
            if (heartbeatTtl != null) {
                changed.heartbeatTtl(heartbeatTtl);
            }
            if (dedupWindow != null) {
                changed.dedupWindow(dedupWindow);
            }
            if (maxPayloadBytes != null) {
                changed.maxPayloadBytes(maxPayloadBytes);
            }
            if (partitionConcurrency != null) {
                changed.partitionConcurrency(partitionConcurrency);
            }
            if (partitionConcurrencyOverrides != null) {
                changed.partitionConcurrencyOverrides(overrides(current.partitionConcurrencyOverrides()));
            }
            if (queueConcurrency != null) {
                changed.queueConcurrency(queueConcurrency);
            }
            if (queueRateLimit != null) {
                changed.queueRateLimit(rate("queueRateLimit", queueRateLimit));
            }
            if (partitionRateLimit != null) {
                changed.partitionRateLimit(rate("partitionRateLimit", partitionRateLimit));
            }
            if (deadLetterMaxCount != null) {
                changed.deadLetterMaxCount(deadLetterMaxCount);
            }
            if (deadLetterMaxAge != null) {
                changed.deadLetterMaxAge(deadLetterMaxAge);
            }
            if (resultRetention != null) {
                changed.resultRetention(resultRetention);
            }
            if (maxResultBytes != null) {
                changed.maxResultBytes(maxResultBytes);
            }
            if (eventLogLength != null) {
                changed.eventLogLength(eventLogLength);
            }
            QueueSettings next = changed.build(); // validates every field before anything is stored
            store.configure(next);
            return next;
        });
        PrintWriter out = out();
        out.printf("queue %s on %s%s%n", queueName(), backend.backend(), changesAnything() ? " (changed)" : "");
        out.printf("  %-20s %d%n", "max attempts", settings.maxAttempts());
        out.printf("  %-20s %s%n", "processing timeout", settings.hasProcessingTimeout() ? millis(settings.processingTimeout()) : "off");
        out.printf("  %-20s %s%n", "heartbeat ttl", millis(settings.heartbeatTtl()));
        out.printf("  %-20s %s%n", "dedup window", settings.hasDedupWindow() ? millis(settings.dedupWindow()) : "off");
        out.printf("  %-20s %d%n", "max payload bytes", settings.maxPayloadBytes());
        printFlowLimits(out, settings);
        printRetention(out, settings);
        return done();
    }

    /** The caps and rate limits, when the queue has any (ordo settings and ordo stats print them alike). */
    static void printFlowLimits(PrintWriter out, QueueSettings settings) {
        if (settings.hasConcurrencyCaps() || settings.hasRateLimits()) {
            out.printf("  %-20s %s%n", "partition cap", cap(settings.partitionConcurrency()));
            settings.partitionConcurrencyOverrides().forEach((partition, cap) ->
                    out.printf("  %-20s %s%n", "  " + partition.code(), cap));
            out.printf("  %-20s %s%n", "queue cap", cap(settings.queueConcurrency()));
            out.printf("  %-20s %s%n", "queue rate limit", rate(settings.queueRateLimit()));
            out.printf("  %-20s %s%n", "partition rate limit", rate(settings.partitionRateLimit()));
        }
    }

    /**
     * What the queue keeps within bounds: the caps on its dead letters and its results, when set (ordo settings
     * and ordo stats print them alike).
     */
    static void printRetention(PrintWriter out, QueueSettings settings) {
        if (settings.hasDeadLetterCaps()) {
            out.printf("  %-20s %s%n", "dead letter cap", cap(settings.deadLetterMaxCount()));
            out.printf("  %-20s %s%n", "dead letter max age",
                    settings.deadLetterMaxAge().isZero() ? "off" : millis(settings.deadLetterMaxAge()));
        }
        if (settings.keepsResults()) {
            out.printf("  %-20s %s%n", "result retention", millis(settings.resultRetention()));
            out.printf("  %-20s %s%n", "max result bytes", settings.maxResultBytes());
        }
        if (settings.keepsEvents()) {
            out.printf("  %-20s %s%n", "event log length", settings.eventLogLength());
        }
    }

    private boolean changesAnything() {
        return maxAttempts != null || processingTimeout != null || heartbeatTtl != null || dedupWindow != null
                || maxPayloadBytes != null || partitionConcurrency != null || partitionConcurrencyOverrides != null
                || queueConcurrency != null || queueRateLimit != null || partitionRateLimit != null
                || deadLetterMaxCount != null || deadLetterMaxAge != null || resultRetention != null
                || maxResultBytes != null || eventLogLength != null;
    }

    /** The current overrides with those given: CODE=N sets one, CODE=0 removes it. */
    private Map<Partition, Integer> overrides(Map<Partition, Integer> current) {
        Map<Partition, Integer> result = new LinkedHashMap<>(current);
        for (String given : partitionConcurrencyOverrides) {
            int equals = given.lastIndexOf('=');
            int cap;
            try {
                cap = equals > 0 ? Integer.parseInt(given.substring(equals + 1)) : -1;
            } catch (NumberFormatException e) {
                cap = -1;
            }
            if (cap < 0) {
                throw new InvalidInputException("partitionConcurrencyOverride", "must be CODE=N, was " + given);
            }
            Partition partition = Partition.of(given.substring(0, equals));
            if (cap == 0) {
                result.remove(partition);
            } else {
                result.put(partition, cap);
            }
        }
        return result;
    }

    /** PERMITS/DURATION[:BURST] (burst: as many as the permits) or off. */
    private static RateLimit rate(String field, String text) {
        if (text.trim().equalsIgnoreCase("off")) {
            return RateLimit.OFF;
        }
        Matcher matcher = RATE.matcher(text.trim());
        if (!matcher.matches()) {
            throw new InvalidInputException(field, "must be PERMITS/DURATION[:BURST] or off, was " + text);
        }
        try {
            int permits = Integer.parseInt(matcher.group(1));
            Duration per = new DurationConverter().convert(matcher.group(2));
            int burst = matcher.group(3) != null ? Integer.parseInt(matcher.group(3)) : permits;
            return new RateLimit(permits, per, burst);
        } catch (InvalidInputException e) {
            throw new InvalidInputException(field, e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new InvalidInputException(field, "must be PERMITS/DURATION[:BURST] or off, was " + text, e);
        }
    }

    private static String cap(int cap) {
        return cap == 0 ? "off" : Integer.toString(cap);
    }

    private static String rate(RateLimit limit) {
        return limit.isOff() ? "off" : limit.permits() + "/" + millis(limit.per()) + ":" + limit.burst();
    }

    /** As the options take durations: {@code 30s}, {@code 5m}, {@code 250ms}. */
    private static String millis(Duration duration) {
        return CliTerms.readable(duration);
    }
}
