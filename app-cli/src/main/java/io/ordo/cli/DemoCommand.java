package io.ordo.cli;

import io.ordo.cli.demo.DemoScenario;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.ports.VirtualClock;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/**
 * Tells a short story of one queue, step by step, on a virtual clock: instant and the same on every run.
 *
 * <pre>
 * ordo demo
 * </pre>
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Tells a short story of one queue, step by step; needs no Redis.",
                "Ordered and regular partitions, a priority, a delayed task, a retry with backoff,",
                "a dead letter, and a crashed worker whose tasks come back in order. Runs on a",
                "virtual clock, so it is instant and the same on every run."},
        footer = {"", "Example:", "  ordo demo"})
final class DemoCommand implements Callable<Integer> {
    @Mixin
    BackendOptions backend;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        VirtualClock clock = new VirtualClock();
        try (TaskStoreFactory stores = backend.open(clock)) {
            new DemoScenario(stores.forQueue(DemoScenario.QUEUE), clock, spec.commandLine().getOut()).run();
        }
        return ExitCodes.OK;
    }
}
