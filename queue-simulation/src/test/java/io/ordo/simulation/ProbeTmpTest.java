package io.ordo.simulation;

import io.ordo.ports.VirtualClock;
import org.junit.jupiter.api.Test;
import java.util.*;

class ProbeTmpTest {
    @Test
    void probe() throws Exception {
        String[] keys = {"=RETURNED_WITH_BATCH", "=DEAD_LETTERED", "=RETURNED ", "=LEASE_LOST", "=DUPLICATE", "=RELEASED", "=IN_FLIGHT", "=CANCELLED", "=REDRIVEN", "timedOut=1", "timedOut=2", "dead=[c", "paused", "lp=1", "lp=2", "bp=1", "consume c", "-> none", "#2", "#3", "#5"};
        Map<String, Integer> counts = new LinkedHashMap<>();
        int lines = 0; long t0 = System.nanoTime(); int maxTasks = 0;
        for (long seed = 1; seed <= 200; seed++) {
            VirtualClock clock = new VirtualClock();
            Trace trace = Simulation.run(seed, new SimpleTaskStore(clock), clock);
            for (String line : trace.lines()) {
                lines++;
                for (String k : keys) if (line.contains(k)) counts.merge(k, 1, Integer::sum);
            }
            String last = trace.lines().get(trace.lines().size() - 1);
            int pub = Integer.parseInt(last.replaceAll(".* pub=(\\d+).*", "$1"));
            maxTasks = Math.max(maxTasks, pub);
        }
        StringBuilder sb = new StringBuilder("lines " + lines + " maxpub " + maxTasks + " ms " + (System.nanoTime()-t0)/1_000_000 + "\n");
        counts.forEach((k, v) -> sb.append(k).append(" ").append(v).append("\n"));
        VirtualClock clock = new VirtualClock();
        sb.append(Simulation.run(5, new SimpleTaskStore(clock), clock).toString());
        try {
            for (long seed = 1; ; seed++) {
                VirtualClock c = new VirtualClock();
                Simulation.run(seed, new SimpleTaskStore(c, SimpleTaskStore.Quirk.IGNORES_PRIORITY), c);
            }
        } catch (SimulationFailure f) { sb.append("\n\n").append(f.getMessage()); }
        java.nio.file.Files.writeString(java.nio.file.Path.of("/tmp/simprobe/out.txt"), sb);
    }
}
