package io.ordo.systemtest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The lines of {@code ordo work --log-tasks}: event, id, partition, attempt. */
public record TaskEvents(List<Event> events) {
    public record Event(String kind, String id, String partition, int attempt) {
    }

    public static TaskEvents parse(List<String> lines) {
        List<Event> events = new ArrayList<>();
        for (String line : lines) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length == 5 && fields[3].equals("attempt")) {
                events.add(new Event(fields[0], fields[1], fields[2], Integer.parseInt(fields[4])));
            }
        }
        return new TaskEvents(events);
    }

    /** Each id's events in the order they were printed. */
    public Map<String, List<String>> byId() {
        Map<String, List<String>> byId = new LinkedHashMap<>();
        events.forEach(event -> byId.computeIfAbsent(event.id(), id -> new ArrayList<>()).add(event.kind()));
        return byId;
    }

    /** Ids with an event of this kind, in the order of those events. */
    public List<String> ids(String kind) {
        return events.stream().filter(event -> event.kind().equals(kind)).map(Event::id).toList();
    }
}
