package io.ordo.dashboard;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.RateLimit;
import io.ordo.domain.Schedule;
import io.ordo.ports.ConsumerPresence;
import io.ordo.ports.PartitionBacklog;
import io.ordo.ports.PartitionBlock;
import io.ordo.ports.PartitionLock;
import io.ordo.ports.QueueInspection;
import io.ordo.ports.ScheduleEntry;

import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A queue's state as the dashboard's API gives it: its inspection (busiest partitions, locks, blocks,
 * consumers), its schedules, its caps and rate limits, and its throughput. It writes JSON only;
 * {@link DashboardApi} reads the store and pays for the reads.
 */
final class QueueStateJson {
    private final ObjectMapper json;

    QueueStateJson(ObjectMapper json) {
        this.json = json;
    }

    /** An inspection, each of its lists cut to {@code limit}, with their totals. */
    ObjectNode inspection(QueueInspection inspection, int limit) {
        ObjectNode node = json.createObjectNode().put("inspectedAt", inspection.inspectedAt().toEpochMilli());
        ArrayNode partitions = node.putArray("busiestPartitions");
        for (PartitionBacklog backlog : DashboardApi.first(inspection.busiestPartitions(), limit)) {
            partitions.addObject().put("partition", backlog.partition().code()).put("ordered", backlog.partition().isOrdered())
                    .put("waiting", backlog.waiting()).put("due", backlog.due());
        }
        node.put("totalPartitions", inspection.totalPartitions());
        ArrayNode locks = node.putArray("locks");
        for (PartitionLock lock : DashboardApi.first(inspection.locks(), limit)) {
            locks.addObject().put("partition", lock.partition().code()).put("holder", lock.holder().value())
                    .put("since", lock.since().toEpochMilli()).put("inFlight", lock.inFlight());
        }
        node.put("totalLocks", inspection.totalLocks());
        ArrayNode blocks = node.putArray("blocks");
        for (PartitionBlock block : DashboardApi.first(inspection.blocks(), limit)) {
            blocks.addObject().put("partition", block.partition().code()).put("until", block.until().toEpochMilli());
        }
        node.put("totalBlocks", inspection.totalBlocks());
        ArrayNode consumers = node.putArray("consumers");
        for (ConsumerPresence consumer : DashboardApi.first(inspection.consumers(), limit)) {
            consumers.addObject().put("consumer", consumer.consumer().value())
                    .put("lastHeartbeat", consumer.lastHeartbeat().toEpochMilli())
                    .put("expiresAt", consumer.expiresAt().toEpochMilli()).put("alive", consumer.alive())
                    .put("inFlight", consumer.inFlight());
        }
        node.put("totalConsumers", inspection.totalConsumers());
        return node;
    }

    /** The schedules into {@code root}, as {@code schedules}: each one's timing, task, misfire rule and last slot. */
    ObjectNode schedules(ObjectNode root, List<ScheduleEntry> entries) {
        ArrayNode items = root.putArray("schedules");
        for (ScheduleEntry entry : entries) {
            Schedule schedule = entry.schedule();
            ObjectNode item = items.addObject().put("id", schedule.id());
            if (schedule.cron() != null) {
                item.put("cron", schedule.cron()).put("zone", schedule.zone().getId());
            } else {
                item.put("everyMillis", schedule.every().toMillis());
            }
            item.put("partition", schedule.partition().code()).put("ordered", schedule.partition().isOrdered())
                    .put("priority", schedule.priority().value()).put("misfire", schedule.misfire().toString());
            if (schedule.start() != null) {
                item.put("start", schedule.start().toEpochMilli());
            }
            if (schedule.end() != null) {
                item.put("end", schedule.end().toEpochMilli());
            }
            entry.lastSlot().ifPresent(slot -> item.put("lastSlot", slot.toEpochMilli()));
        }
        return root;
    }

    /** The caps, rate limits and dead-letter caps of {@code settings} into {@code root}. */
    ObjectNode limits(ObjectNode root, QueueSettings settings) {
        root.put("partitionConcurrency", settings.partitionConcurrency())
                .put("queueConcurrency", settings.queueConcurrency());
        ArrayNode overrides = root.putArray("partitionConcurrencyOverrides");
        settings.partitionConcurrencyOverrides().entrySet().stream()
                .sorted(Map.Entry.comparingByKey(Comparator.comparing(Partition::code)))
                .forEach(entry -> overrides.addObject().put("partition", entry.getKey().code()).put("cap", entry.getValue()));
        rate(root, "partitionRateLimit", settings.partitionRateLimit());
        rate(root, "queueRateLimit", settings.queueRateLimit());
        root.put("deadLetterMaxCount", settings.deadLetterMaxCount())
                .put("deadLetterMaxAgeMillis", settings.deadLetterMaxAge().toMillis());
        return root;
    }

    private static void rate(ObjectNode root, String field, RateLimit limit) {
        if (!limit.isOff()) {
            root.putObject(field).put("permits", limit.permits()).put("perMillis", limit.per().toMillis())
                    .put("burst", limit.burst());
        }
    }

    /** Throughput samples, oldest first. */
    ArrayNode rates(List<ThroughputHistory.Rate> rates) {
        ArrayNode array = json.createArrayNode();
        for (ThroughputHistory.Rate rate : rates) {
            array.addObject().put("at", rate.at()).put("published", rate.published()).put("acked", rate.acked())
                    .put("deadLettered", rate.deadLettered());
        }
        return array;
    }
}
