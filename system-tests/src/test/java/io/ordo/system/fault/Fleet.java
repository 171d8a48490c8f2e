package io.ordo.system.fault;

import io.ordo.systemtest.OrdoProcess;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Several {@code ordo work} processes started with the same arguments, each of which can be
 * SIGKILLed and replaced by a fresh process (a new start, so a new consumer name, as a container
 * restarted in place). Every process ever started is kept, so their output can be read at the end.
 */
final class Fleet implements AutoCloseable {
    private final List<String> args;
    /** Per slot, what is added to its processes' environment (none: the same for all). */
    private final List<Map<String, String>> environments;
    private final OrdoProcess[] slots;
    private final List<OrdoProcess> everyProcess = new ArrayList<>();
    private final Journal journal;
    private int kills;
    private int crashes;

    Fleet(int size, Journal journal, List<String> args) {
        this(journal, args, java.util.Collections.nCopies(size, Map.of()));
    }

    /** One worker per environment, each slot's processes started with its environment added. */
    Fleet(Journal journal, List<String> args, List<Map<String, String>> environments) {
        this.args = List.copyOf(args);
        this.environments = List.copyOf(environments);
        this.journal = journal;
        this.slots = new OrdoProcess[environments.size()];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = launch(i);
        }
    }

    int size() {
        return slots.length;
    }

    /** SIGKILLs the worker in {@code slot}, notes it in the journal once it is gone, and starts a new one there. */
    void killAndRestart(int slot) {
        OrdoProcess victim = slots[slot];
        if (victim.isAlive()) {
            victim.kill();
            victim.awaitExit();
            journal.killed(victim.pid());
            kills++;
        }
        slots[slot] = launch(slot);
    }

    /** Starts a new worker in place of every one that ended by itself (a poison task halted it). */
    void restartTheCrashed() {
        for (int i = 0; i < slots.length; i++) {
            if (!slots[i].isAlive()) {
                slots[i].awaitExit();
                crashes++;
                slots[i] = launch(i);
            }
        }
    }

    /**
     * The slots whose worker is alive and has processed a task (needs {@code --log-tasks}): a kill
     * then hits a worker in full swing, not a JVM still loading its classes with a fetch in hand,
     * which on a loaded machine can take seconds and would charge the same tasks again and again.
     */
    List<Integer> working() {
        List<Integer> working = new ArrayList<>();
        for (int i = 0; i < slots.length; i++) {
            if (slots[i].isAlive() && slots[i].out().stream().anyMatch(line -> line.startsWith("processed"))) {
                working.add(i);
            }
        }
        return working;
    }

    int kills() {
        return kills;
    }

    int crashes() {
        return crashes;
    }

    int started() {
        return everyProcess.size();
    }

    /** Waits until every current worker has printed a line of stderr that matches. */
    void awaitEach(String what, Predicate<String> wanted) {
        for (OrdoProcess worker : slots) {
            worker.awaitErr(what, wanted);
        }
    }

    /** SIGTERM to every current worker; waits for them to stop. */
    void stopGracefully() {
        for (OrdoProcess worker : slots) {
            worker.terminate();
        }
        for (OrdoProcess worker : slots) {
            worker.awaitExit();
        }
    }

    /** The stdout lines of every process the fleet started. */
    List<String> everyOut() {
        List<String> lines = new ArrayList<>();
        everyProcess.forEach(worker -> lines.addAll(worker.out()));
        return lines;
    }

    /** The stderr of the current workers, for failure messages. */
    String currentErr() {
        StringBuilder err = new StringBuilder();
        for (OrdoProcess worker : slots) {
            err.append("--- worker ").append(worker.pid()).append('\n');
            worker.err().forEach(line -> err.append(line).append('\n'));
        }
        return err.toString();
    }

    private OrdoProcess launch(int slot) {
        OrdoProcess worker = OrdoProcess.start(environments.get(slot), args.toArray(String[]::new));
        everyProcess.add(worker);
        return worker;
    }

    @Override
    public void close() {
        everyProcess.forEach(OrdoProcess::close);
    }
}
