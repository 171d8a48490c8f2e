package io.ordo.system.fault;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The timeline every worker of a drill appends to ({@code ordo work --journal}): {@code begin},
 * {@code done}, {@code fail} and {@code crash} lines from the demo handlers, {@code killed <pid>}
 * lines from the test right after each SIGKILL. One file, appended to with {@code O_APPEND}, so
 * its order is the order things happened across processes.
 */
final class Journal {
    private final Path file;

    Journal(Path file) {
        this.file = file;
    }

    Path file() {
        return file;
    }

    /** Notes that the process is gone (after it has exited), so tasks it left open are not held by anyone. */
    void killed(long pid) {
        try (FileOutputStream out = new FileOutputStream(file.toFile(), true)) {
            out.write(("killed " + pid + " " + System.currentTimeMillis() + "\n").getBytes(UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    List<Entry> entries() {
        try {
            List<Entry> entries = new ArrayList<>();
            for (String line : Files.readAllLines(file, UTF_8)) {
                String[] fields = line.split(" ");
                if (fields[0].equals("killed") && fields.length == 3) {
                    entries.add(new Entry("killed", Long.parseLong(fields[1]), null, null, 0, Long.parseLong(fields[2])));
                } else if (fields.length == 6) {
                    entries.add(new Entry(fields[0], Long.parseLong(fields[1]), fields[2], fields[3], Integer.parseInt(fields[4]),
                            Long.parseLong(fields[5])));
                } else {
                    throw new AssertionError("a torn journal line: '" + line + "'");
                }
            }
            return entries;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** How many times each task's handler was done with it (before its ack). */
    Map<String, Integer> doneCounts() {
        Map<String, Integer> counts = new HashMap<>();
        entries().stream().filter(entry -> entry.event.equals("done")).forEach(entry -> counts.merge(entry.id, 1, Integer::sum));
        return counts;
    }

    /**
     * Where an ordered partition was run out of order or by two live processes at once: a task
     * begun before every earlier task of its partition (in publish order) was done, unless that
     * earlier one is {@code skippable} (a planted poison task that dies instead); or begun while
     * another process, not killed, still ran a task of that partition.
     */
    List<String> orderedViolations(Map<String, List<String>> publishedOrder, Set<String> skippable) {
        List<String> violations = new ArrayList<>();
        Map<String, Integer> position = new HashMap<>();
        publishedOrder.forEach((partition, ids) -> {
            for (int i = 0; i < ids.size(); i++) {
                position.put(ids.get(i), i);
            }
        });
        Set<String> done = new HashSet<>();
        Set<Long> gone = new HashSet<>();
        Map<String, Map<Long, String>> running = new LinkedHashMap<>(); // partition → pid → task
        int line = 0;
        for (Entry entry : entries()) {
            line++;
            switch (entry.event) {
                case "killed", "crash" -> gone.add(entry.pid);
                case "done" -> {
                    done.add(entry.id);
                    running.getOrDefault(entry.partition, new HashMap<>()).remove(entry.pid, entry.id);
                }
                case "fail" -> running.getOrDefault(entry.partition, new HashMap<>()).remove(entry.pid, entry.id);
                case "begin" -> {
                    List<String> order = publishedOrder.get(entry.partition);
                    if (order == null) {
                        continue; // a regular partition
                    }
                    for (int i = 0; i < position.get(entry.id); i++) {
                        String earlier = order.get(i);
                        if (!done.contains(earlier) && !skippable.contains(earlier)) {
                            violations.add("line " + line + ": " + entry.id + " begun before " + earlier + " was done");
                            break;
                        }
                    }
                    Map<Long, String> holders = running.computeIfAbsent(entry.partition, p -> new HashMap<>());
                    for (Map.Entry<Long, String> holder : holders.entrySet()) {
                        if (holder.getKey() != entry.pid && !gone.contains(holder.getKey())) {
                            violations.add("line " + line + ": " + entry.id + " begun by " + entry.pid + " while live "
                                    + holder.getKey() + " ran " + holder.getValue());
                        }
                    }
                    holders.put(entry.pid, entry.id);
                }
                default -> throw new AssertionError("unknown journal event " + entry.event);
            }
        }
        return violations;
    }

    record Entry(String event, long pid, String id, String partition, int attempt, long at) {
    }
}
