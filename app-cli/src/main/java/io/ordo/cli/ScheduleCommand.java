package io.ordo.cli;

import io.ordo.cli.publish.JsonPayload;
import io.ordo.domain.MisfirePolicy;
import io.ordo.domain.Schedule;
import io.ordo.ports.QueueSchedules;
import io.ordo.ports.ScheduleEntry;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Recurring schedules kept with the queue; running workers fire them (docs/semantics.md, "Schedules").
 *
 * <pre>
 * ordo schedule add --queue reports --partition daily --cron '0 9 * * 1-5' --zone Europe/Berlin nightly '{}'
 * ordo schedule list --queue reports
 * ordo schedule remove --queue reports nightly
 * </pre>
 */
@Command(name = "schedule", mixinStandardHelpOptions = true,
        description = "Recurring schedules kept with the queue: each slot publishes one task, fired by running workers.",
        subcommands = {ScheduleCommand.Add.class, ScheduleCommand.ListSchedules.class, ScheduleCommand.Remove.class},
        footer = {"", "Examples:",
                "  ordo schedule add --queue reports --partition daily --cron '0 9 * * 1-5' \\",
                "      --zone Europe/Berlin nightly '{\"kind\":\"daily\"}'",
                "  ordo schedule add --queue reports --partition pings --every 5m ping '{}'",
                "  ordo schedule list --queue reports",
                "  ordo schedule remove --queue reports nightly"})
final class ScheduleCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "missing subcommand: add, list or remove (see 'ordo schedule --help')");
    }

    /** Reads a zone id such as {@code Europe/Berlin} or {@code UTC}. */
    static final class ZoneConverter implements ITypeConverter<ZoneId> {
        @Override
        public ZoneId convert(String text) {
            try {
                return ZoneId.of(text.trim());
            } catch (DateTimeException e) {
                throw new TypeConversionException("'" + text + "' is not a time zone (use e.g. Europe/Berlin or UTC)");
            }
        }
    }

    @Command(name = "add", mixinStandardHelpOptions = true,
            description = {"Creates a schedule, or replaces the one with its id (the slots it handled stay handled).",
                    "Each slot publishes the JSON payload as a task with id <ID>@<slot instant>."},
            footer = {"", "Example:", "  ordo schedule add --queue reports --partition daily --cron '0 9 * * *' \\",
                    "      --zone Europe/Berlin --misfire once nightly '{}'"})
    static final class Add extends QueueCommand {
        @Parameters(index = "0", paramLabel = "ID", description = "The schedule's id, 1..100 characters.")
        String id;

        @Parameters(index = "1", paramLabel = "PAYLOAD", description = "The JSON payload of every slot's task.")
        String payload;

        @Option(names = "--partition", required = true, paramLabel = "NAME",
                description = "The partition of the tasks; '!NAME' is the ordered partition NAME.")
        String partition;

        @Option(names = "--ordered", description = "The partition is ordered: the schedule's runs never overlap.")
        boolean ordered;

        @Option(names = "--cron", paramLabel = "EXPR",
                description = "Five-field cron expression: minute hour day-of-month month day-of-week.")
        String cron;

        @Option(names = "--zone", paramLabel = "ZONE", defaultValue = "UTC", converter = ZoneConverter.class,
                description = "The zone the cron expression is read in (default: ${DEFAULT-VALUE}).")
        ZoneId zone;

        @Option(names = "--every", paramLabel = "DURATION", converter = DurationConverter.class,
                description = "A fixed interval instead of --cron, e.g. 30s, 5m, 1h (1s..366d).")
        Duration every;

        @Option(names = "--priority", paramLabel = "N", defaultValue = "0",
                description = "Priority of the tasks, -1000..1000 (default: ${DEFAULT-VALUE}).")
        int priority;

        @Option(names = "--misfire", paramLabel = "POLICY", defaultValue = "skip",
                description = "Slots missed: skip, once (one task for all), catch-up:N (the latest N)"
                        + " (default: ${DEFAULT-VALUE}).")
        String misfire;

        @Option(names = "--start", paramLabel = "INSTANT", converter = InstantConverter.class,
                description = "No slot before this instant, e.g. 2026-12-24T09:00:00Z.")
        Instant start;

        @Option(names = "--end", paramLabel = "INSTANT", converter = InstantConverter.class,
                description = "No slot at or after this instant.")
        Instant end;

        @Option(names = "--header", paramLabel = "NAME=VALUE", description = "A header of every task (repeatable).")
        List<String> headers = List.of();

        @Override
        public Integer call() {
            byte[] json = payload.getBytes(StandardCharsets.UTF_8);
            JsonPayload.check(json, "payload");
            Schedule.Builder builder = Schedule.builder(id, Partitions.fromOptions(partition, ordered), json)
                    .priority(priority).misfire(MisfirePolicy.parse(misfire)).start(start).end(end);
            if (cron != null) {
                builder.cron(cron, zone);
            }
            if (every != null) {
                if (cron != null) {
                    throw new ParameterException(spec.commandLine(), "--cron and --every: give one of the two");
                }
                builder.every(every);
            }
            for (Map.Entry<String, String> header : headers(headers).entrySet()) {
                builder.header(header.getKey(), header.getValue());
            }
            Schedule schedule = builder.build();
            boolean created = onStore((QueueSchedules store) -> store.putSchedule(schedule));
            out().printf("%s schedule %s of queue %s%n", created ? "created" : "replaced",
                    TerminalText.escape(schedule.id()), queueName());
            return done();
        }

        private Map<String, String> headers(List<String> given) {
            Map<String, String> parsed = new LinkedHashMap<>();
            for (String header : given) {
                int equals = header.indexOf('=');
                if (equals <= 0) {
                    throw new ParameterException(spec.commandLine(), "--header: '" + header + "' is not NAME=VALUE");
                }
                parsed.put(header.substring(0, equals), header.substring(equals + 1));
            }
            return parsed;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Lists the queue's schedules by id.",
            footer = {"", "Example:", "  ordo schedule list --queue reports"})
    static final class ListSchedules extends QueueCommand {
        @Override
        public Integer call() {
            List<ScheduleEntry> entries = onStore(QueueSchedules::schedules);
            for (ScheduleEntry entry : entries) {
                Schedule s = entry.schedule();
                out().printf("%s  %s  %s%s  misfire %s%s%s  last slot %s%n", TerminalText.escape(s.id()),
                        s.cron() != null ? "cron '" + TerminalText.escape(s.cron()) + "' " + s.zone()
                                : "every " + CliTerms.readable(s.every()),
                        TerminalText.escape(s.partition()),
                        s.priority().value() == 0 ? "" : "  priority " + s.priority().value(), s.misfire(),
                        s.start() == null ? "" : "  start " + s.start(), s.end() == null ? "" : "  end " + s.end(),
                        entry.lastSlot().map(Instant::toString).orElse("none"));
            }
            out().printf("queue %s: %d schedule%s%n", queueName(), entries.size(), entries.size() == 1 ? "" : "s");
            return done();
        }
    }

    @Command(name = "remove", mixinStandardHelpOptions = true,
            description = "Deletes a schedule; the tasks it published stay.",
            footer = {"", "Example:", "  ordo schedule remove --queue reports nightly"})
    static final class Remove extends QueueCommand {
        @Parameters(paramLabel = "ID", description = "The schedule's id.")
        String id;

        @Override
        public Integer call() {
            boolean removed = onStore((QueueSchedules store) -> store.removeSchedule(id));
            if (!removed) {
                backend.noteWhenNothingPersists();
                spec.commandLine().getErr().printf("ordo: queue %s has no schedule %s%n", queueName(),
                        TerminalText.escape(id));
                spec.commandLine().getErr().flush();
                return ExitCodes.NOT_FOUND;
            }
            out().printf("removed schedule %s of queue %s%n", TerminalText.escape(id), queueName());
            return done();
        }
    }
}
