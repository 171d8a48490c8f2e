package io.ordo.redis;

import io.ordo.ports.QueueInspection;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** A Redis queue's inspection ({@link QueueInspection}), put together from inspect.lua's stages. */
final class RedisInspection {
    /** Calls a function on the store's keys. */
    private final QueueCall onKeys;
    /** The override clock's now, or empty: the scripts then read the server's TIME. */
    private final Supplier<String> now;

    RedisInspection(QueueCall onKeys, Supplier<String> now) {
        this.onKeys = onKeys;
        this.now = now;
    }

    /**
     * Puts the inspection together from bounded calls (inspect.lua's stages), so that none holds the server
     * for long: the busiest partitions from chunks of partitions, the due counts of those listed from chunks
     * of the tasks not ready yet, then locks, blocks and consumers. Each chunk is consistent; under traffic
     * the whole is a view assembled over the calls' time, not one instant's.
     */
    QueueInspection read(int limit) {
        QueueInspection.checkedLimit(limit);
        Map<String, Long> busiest = new LinkedHashMap<>();
        String cursor = "";
        do {
            List<Object> chunk = onKeys.run(RedisScript.INSPECT, new Args().add(now.get()).add(limit).add("p").add(cursor));
            for (int i = 1; i < chunk.size(); i += 2) {
                busiest.put(Replies.text(chunk, i), Replies.number(chunk, i + 1)); // seen again: the later size
            }
            busiest = Inspections.busiest(busiest, limit);
            cursor = Replies.text(chunk, 0);
        } while (!cursor.isEmpty());

        List<String> codes = List.copyOf(busiest.keySet());
        long[] notReady = new long[codes.size()];
        if (!codes.isEmpty()) {
            cursor = "";
            do {
                Args args = new Args().add(now.get()).add(limit).add("d").add(cursor);
                codes.forEach(args::add);
                List<Object> chunk = onKeys.run(RedisScript.INSPECT, args);
                for (int i = 0; i < codes.size(); i++) {
                    notReady[i] += Replies.number(chunk, i + 1);
                }
                cursor = Replies.text(chunk, 0);
            } while (!cursor.isEmpty());
        }

        List<Object> rest = onKeys.run(RedisScript.INSPECT, new Args().add(now.get()).add(limit).add("o").add(""));
        List<Object> whole = new ArrayList<>(rest.subList(0, 2));
        whole.add((long) codes.size());
        for (int i = 0; i < codes.size(); i++) {
            long waiting = busiest.get(codes.get(i));
            whole.add(codes.get(i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            whole.add(waiting);
            whole.add(Math.max(0, waiting - notReady[i]));
        }
        whole.addAll(rest.subList(2, rest.size()));
        return Inspections.decode(whole);
    }
}
