package io.ordo.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/** What the numbers were measured on: hardware, load, and the versions of everything involved. */
final class Machine {
    private Machine() {
    }

    static Map<String, String> describe(BenchRedis redis, String bullmqVersion) {
        Map<String, String> facts = new LinkedHashMap<>();
        facts.put("cpu", firstValue(Path.of("/proc/cpuinfo"), "model name").orElse(System.getProperty("os.arch")));
        facts.put("cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
        facts.put("memory", firstValue(Path.of("/proc/meminfo"), "MemTotal").orElse("?"));
        facts.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        facts.put("load average at start", read(Path.of("/proc/loadavg")).map(l -> l.split(" ", 4))
                .map(p -> p[0] + " " + p[1] + " " + p[2]).orElse("?"));
        facts.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        facts.put("redis", redis.version() + " (private, loopback, no persistence)");
        Properties versions = versions();
        facts.put("ordo", versions.getProperty("ordo"));
        facts.put("lettuce", versions.getProperty("lettuce"));
        facts.put("jedis", versions.getProperty("jedis"));
        if (bullmqVersion != null) {
            facts.put("bullmq", bullmqVersion);
        }
        return facts;
    }

    private static Properties versions() {
        Properties properties = new Properties();
        try (InputStream in = Machine.class.getResourceAsStream("versions.properties")) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties;
    }

    private static java.util.Optional<String> firstValue(Path file, String key) {
        return read(file).flatMap(text -> text.lines().filter(line -> line.startsWith(key)).findFirst())
                .map(line -> line.substring(line.indexOf(':') + 1).trim());
    }

    private static java.util.Optional<String> read(Path file) {
        try {
            return java.util.Optional.of(Files.readString(file));
        } catch (IOException | UncheckedIOException e) {
            return java.util.Optional.empty();
        }
    }
}
