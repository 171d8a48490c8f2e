package io.ordo.benchmarks;

/** The fixed workloads of docs/benchmarks.md, in the order the harness runs them. */
enum Workload {
    P1("publish one task per call, awaited"),
    P2("publish batches of 100"),
    G1("as P2 on a queue with 3 consumer groups: every publish delivers each task to each group"),
    C1("drain pre-loaded tasks: 1 worker, 8 handler threads, prefetch 32, no-op handler, ack each"),
    C1W("as C1 through the worker runtime applications run: JSON decoding, metrics, retries, heartbeats, reaper"),
    C2("as C1 with 1,000 ordered partitions; order checked while running"),
    C3("as C1 with few, many and very many partitions"),
    L1("publish one at a time at a fixed rate while one worker processes: publish call start to handler start"),
    L2("as L1 at ten times the rate"),
    M1("queued tasks: Redis bytes per task (INFO memory delta / count)"),
    M2("queued tasks on a queue with 1 and with 3 consumer groups: Redis bytes per task per extra group"),
    M3("completed tasks kept with their results: Redis bytes per task kept, with a 100-byte result and an empty one"),
    I1("one idle worker: Redis commands per second it sends");

    private final String description;

    Workload(String description) {
        this.description = description;
    }

    String description() {
        return description;
    }
}
