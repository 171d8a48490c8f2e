package io.ordo.cli;

import io.ordo.cli.doctor.DeploymentDoctor;
import io.ordo.cli.doctor.Finding;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * Checks a Redis deployment for what Ordo needs and prints each finding with its fix.
 *
 * <pre>
 * ordo doctor --redis redis://localhost:6379
 * </pre>
 */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = {"Checks a Redis deployment for what Ordo needs: the version, the topology",
                "against the URI, the eviction policy (only noeviction keeps every task),",
                "persistence, latency, and the user's rights to every command Ordo sends.",
                "Prints each finding with its fix; exits 1 when a check fails, else 0.",
                "Writes nothing but one transient key, ordo:{ordo-doctor}:probe."},
        footer = {"", "Examples:", "  ordo doctor --redis redis://localhost:6379",
                "  ordo doctor --redis rediss://ordo:PASSWORD@redis.internal:6380"})
final class DoctorCommand implements Callable<Integer> {
    @Mixin
    BackendOptions backend;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        List<Finding> findings = new DeploymentDoctor(backend.redisOptions()).examine();
        PrintWriter out = spec.commandLine().getOut();
        out.println("Redis at " + backend.redisOptions().endpoint().address());
        for (Finding finding : findings) {
            out.printf("%-4s  %-12s %s%n", finding.verdict().name().toLowerCase(Locale.ROOT).replace("fail", "FAIL"),
                    finding.check(), finding.found());
            if (!finding.fix().isEmpty()) {
                out.printf("      %-12s %s%n", "fix:", finding.fix());
            }
        }
        long failed = findings.stream().filter(finding -> finding.verdict() == Finding.Verdict.FAIL).count();
        long warned = findings.stream().filter(finding -> finding.verdict() == Finding.Verdict.WARN).count();
        out.printf("doctor: %d check%s failed, %d warning%s%n", failed, failed == 1 ? "" : "s", warned, warned == 1 ? "" : "s");
        out.flush();
        return failed > 0 ? ExitCodes.FAILURE : ExitCodes.OK;
    }
}
