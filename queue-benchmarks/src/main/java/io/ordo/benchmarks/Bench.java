package io.ordo.benchmarks;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The benchmark harness: starts a private redis-server, runs the workloads of docs/benchmarks.md on every
 * contender side by side, prints one table and writes it as Markdown and JSON.
 *
 * <pre>
 * scripts/bench --quick                      # under 2 minutes
 * scripts/bench --full                       # the full counts, 20–30 minutes on 2 shared cores
 * scripts/bench --quick --workloads C1,C2 --contenders ordo-lettuce,streams-lettuce
 * </pre>
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false, version = "Ordo benchmark harness",
        description = "Runs Ordo's benchmark workloads on Ordo and its peers against one private redis-server.")
public final class Bench implements Callable<Integer> {
    @CommandLine.ArgGroup(exclusive = true)
    private ModeChoice modeChoice;

    static final class ModeChoice {
        @Option(names = "--quick", description = "Small counts and short runs: under 2 minutes (the default).")
        boolean quick;
        @Option(names = "--full",
                description = "The workloads at their full counts: 20-30 minutes on a shared 2-core machine.")
        boolean full;
    }

    @Option(names = "--reps", defaultValue = "3", description = "Repetitions of each figure (at least 3).")
    private int repetitions;

    @Option(names = "--workloads", split = ",", description = "Only these workloads (default: all): ${COMPLETION-CANDIDATES}.")
    private List<Workload> workloads;

    @Option(names = "--contenders", split = ",",
            description = "Only these (default: all but streams-jedis, which stays out to keep the run short): "
                    + "ordo-lettuce, ordo-jedis, streams-lettuce, streams-jedis, bullmq.")
    private List<String> contenders;

    @Option(names = "--out", defaultValue = "bench-results", description = "Where results go (a folder per run).")
    private Path out;

    @Option(names = "--bullmq-dir", defaultValue = "queue-benchmarks/peers/bullmq",
            description = "The folder of the BullMQ peer (bench.js and its node_modules).")
    private Path bullmqDirectory;

    @Option(names = "--ack-each",
            description = "The harness's driver sends one ack call per task from the task's handler (a diagnostic) "
                    + "instead of the acks of finished tasks riding on its next fetch.")
    private boolean ackEach;

    @Option(names = "--render", description = "Writes the Markdown of an earlier run's results.json again (next to it) and exits.")
    private Path render;

    @Option(names = "--slowlog-micros", defaultValue = "1000",
            description = "Commands slower than this go into the profile's slow log.")
    private long slowlogMicros;

    public static void main(String[] args) {
        System.exit(new CommandLine(new Bench()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
    }

    @Override
    public Integer call() throws IOException {
        if (render != null) {
            String markdown = Report.read(render).markdown();
            Files.writeString(render.resolveSibling("results.md"), markdown);
            System.out.println(markdown);
            return 0;
        }
        if (repetitions < 3) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--reps must be at least 3");
        }
        Mode mode = modeChoice != null && modeChoice.full ? Mode.FULL : Mode.QUICK;
        DrainWorker.ackEachTask = ackEach;
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss"));
        Path runDirectory = out.resolve(stamp.replace(' ', '-').replace(":", "") + "-" + mode.name().toLowerCase());
        Files.createDirectories(runDirectory.resolve("profile"));

        BenchRun run = new BenchRun(mode, repetitions, selectedWorkloads(), selectedContenders(),
                bullmqDirectory.toAbsolutePath(), runDirectory.resolve("profile"), slowlogMicros);
        BenchRun.Outcome outcome = run.execute();
        Report report = new Report(outcome.results(), mode, repetitions, outcome.machine(), stamp, outcome.seconds());

        String markdown = report.markdown();
        Files.writeString(runDirectory.resolve("results.md"), markdown);
        Files.writeString(runDirectory.resolve("results.json"), report.json());
        Files.writeString(out.resolve("latest-" + mode.name().toLowerCase() + ".md"), markdown);
        Files.writeString(out.resolve("latest-" + mode.name().toLowerCase() + ".json"), report.json());
        System.out.println();
        System.out.println(markdown);
        System.out.println("written to " + runDirectory.toAbsolutePath());
        return outcome.results().allChecksPassed() ? 0 : 3;
    }

    private List<Workload> selectedWorkloads() {
        return workloads == null ? Arrays.asList(Workload.values()) : workloads;
    }

    private List<Contender> selectedContenders() {
        if (contenders == null) {
            List<Contender> all = new ArrayList<>(Arrays.asList(Contender.values()));
            all.remove(Contender.STREAMS_JEDIS); // one Streams peer keeps the full run shorter
            return all;
        }
        return contenders.stream().map(Contender::fromCliName).distinct().toList();
    }
}
