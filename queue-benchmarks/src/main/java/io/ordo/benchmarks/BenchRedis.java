package io.ordo.benchmarks;

import io.ordo.redis.testing.RedisServer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The private redis-server every contender of one run talks to ({@code --save "" --appendonly no}
 * on a free loopback port, never the shared 6379), and what the harness reads off it: memory,
 * command statistics, the slow log, and the commands a client sends (MONITOR).
 */
final class BenchRedis implements AutoCloseable {
    private final RedisServer server;

    private BenchRedis(RedisServer server) {
        this.server = server;
    }

    static BenchRedis start() {
        return new BenchRedis(RedisServer.start());
    }

    String uri() {
        return server.uri();
    }

    int port() {
        return server.port();
    }

    /** Deletes every key; loaded scripts stay. */
    void flushAll() {
        server.command("FLUSHALL");
    }

    long usedMemory() {
        return server.usedMemory();
    }

    String version() {
        return info("server").getOrDefault("redis_version", "?");
    }

    Map<String, String> info(String section) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : ((String) server.command("INFO", section)).split("\r?\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("#")) {
                fields.put(line.substring(0, colon), line.substring(colon + 1).trim());
            }
        }
        return fields;
    }

    /** CPU seconds the server has used since it started (user and system, every thread). */
    double cpuSeconds() {
        Map<String, String> cpu = info("cpu");
        return Double.parseDouble(cpu.getOrDefault("used_cpu_user", "0"))
                + Double.parseDouble(cpu.getOrDefault("used_cpu_sys", "0"));
    }

    /** Starts counting afresh: command statistics and the slow log. */
    void resetStatistics() {
        server.command("CONFIG", "RESETSTAT");
        server.command("SLOWLOG", "RESET");
    }

    void logSlowerThan(Duration threshold) {
        server.command("CONFIG", "SET", "slowlog-log-slower-than", Long.toString(threshold.toNanos() / 1000));
        server.command("CONFIG", "SET", "slowlog-max-len", "1000");
    }

    /** INFO commandstats as Redis prints it. */
    String commandStats() {
        return (String) server.command("INFO", "commandstats");
    }

    /** The slowest entries of the slow log, slowest first, one line each: microseconds, then the command. */
    String slowLog(int entries) {
        List<List<?>> logged = new ArrayList<>();
        if (server.command("SLOWLOG", "GET", "1000") instanceof List<?> list) {
            for (Object entry : list) {
                if (entry instanceof List<?> fields && fields.size() >= 4) {
                    logged.add(fields);
                }
            }
        }
        logged.sort(Comparator.comparingLong((List<?> fields) -> (Long) fields.get(2)).reversed());
        StringBuilder text = new StringBuilder();
        logged.stream().limit(entries).forEach(fields ->
                text.append(fields.get(2)).append(" us  ").append(abbreviate(fields.get(3))).append('\n'));
        return text.toString();
    }

    private static String abbreviate(Object command) {
        String text = String.valueOf(command);
        return text.length() > 160 ? text.substring(0, 160) + "…" : text;
    }

    /**
     * Counts the commands clients send during the window, as MONITOR shows them: commands that scripts
     * run inside the server are not sent by anyone and are left out.
     */
    long countSentCommands(Duration window) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port()), 2000);
            OutputStream out = socket.getOutputStream();
            out.write("MONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.UTF_8));
            String ok = in.readLine();
            if (!"+OK".equals(ok)) {
                throw new IllegalStateException("MONITOR answered " + ok);
            }
            long deadline = System.nanoTime() + window.toNanos();
            long sent = 0;
            while (true) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return sent;
                }
                socket.setSoTimeout((int) Math.max(1, left / 1_000_000));
                String line;
                try {
                    line = in.readLine();
                } catch (SocketTimeoutException end) {
                    return sent;
                }
                if (line == null) {
                    throw new IllegalStateException("redis-server closed the MONITOR connection");
                }
                if (isSentCommand(line)) {
                    sent++;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("MONITOR on port " + server.port() + " failed", e);
        }
    }

    /** A MONITOR line is {@code +<time> [<db> <client>] "<command>" ...}; a script's commands show "lua". */
    static boolean isSentCommand(String line) {
        int open = line.indexOf('[');
        int close = line.indexOf(']', open + 1);
        return line.startsWith("+") && open > 0 && close > open && !line.substring(open, close).contains("lua");
    }

    @Override
    public void close() {
        server.close();
    }
}
