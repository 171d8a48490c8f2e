package io.ordo.lettuce;

import io.ordo.redis.testing.RedisServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A private redis-server run under valgrind's callgrind, for the measurements that count instructions: unlike
 * {@code INFO cpu} on a shared machine, the count repeats to about 1%. {@link #zero()} before what is counted,
 * {@link #instructions()} after it; each count is a dump in {@link #dumps()}, which {@code callgrind_annotate}
 * breaks down by function. Counting is off until {@link #zero()} (filling a queue runs several times faster
 * uncounted). Needs valgrind.
 */
final class Callgrind implements AutoCloseable {
    private final Path dumps;
    private final RedisServer server;

    private Callgrind(Path dumps, RedisServer server) {
        this.dumps = dumps;
        this.server = server;
    }

    static Callgrind start() throws IOException {
        Path dumps = Files.createTempDirectory("ordo-callgrind");
        Path launcher = dumps.resolve("redis-server-under-callgrind");
        Files.writeString(launcher, "#!/bin/sh\nexec valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=" + dumps
                + "/callgrind.out.%p redis-server \"$@\"\n");
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        System.setProperty("ordo.redis.server", launcher.toString());
        try {
            return new Callgrind(dumps, RedisServer.start());
        } finally {
            System.clearProperty("ordo.redis.server");
        }
    }

    RedisServer server() {
        return server;
    }

    Path dumps() {
        return dumps;
    }

    /** Zeroes the counters: what the server does from now on is counted. */
    void zero() throws IOException, InterruptedException {
        control("--instr=on");
        control("-z");
    }

    /** The instructions the server ran since {@link #zero()}, from a dump taken now; counting stops. */
    long instructions() throws IOException, InterruptedException {
        control("-d");
        control("--instr=off");
        try (Stream<String> lines = Files.lines(newestDump())) {
            return lines.filter(line -> line.startsWith("summary:") || line.startsWith("totals:"))
                    .map(line -> Long.parseLong(line.substring(line.indexOf(':') + 1).trim().split("\\s+")[0]))
                    .findFirst().orElseThrow(() -> new IllegalStateException("no totals in the newest dump in " + dumps));
        }
    }

    /** Callgrind writes one file per dump: {@code callgrind.out.<pid>.<n>}, n counting up from 1. */
    Path newestDump() throws IOException {
        String prefix = "callgrind.out." + server.pid() + ".";
        try (Stream<Path> files = Files.list(dumps)) {
            return files.filter(file -> file.getFileName().toString().startsWith(prefix))
                    .max(Comparator.comparingInt(file -> Integer.parseInt(file.getFileName().toString()
                            .substring(prefix.length()))))
                    .orElseThrow(() -> new IllegalStateException("no callgrind dump in " + dumps));
        }
    }

    private void control(String action) throws IOException, InterruptedException {
        Process control = new ProcessBuilder("callgrind_control", action, Long.toString(server.pid()))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (control.waitFor() != 0) {
            throw new IllegalStateException("callgrind_control " + action + " failed: is valgrind installed?");
        }
    }

    @Override
    public void close() {
        server.close();
    }
}
