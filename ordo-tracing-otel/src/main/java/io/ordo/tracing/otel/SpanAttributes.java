package io.ordo.tracing.otel;

import io.opentelemetry.api.common.AttributeKey;

/**
 * The attributes Ordo's spans carry: the OpenTelemetry messaging conventions' where they have one, and
 * Ordo's own under {@code ordo.}.
 */
public final class SpanAttributes {
    /** Always {@value #SYSTEM}. */
    public static final AttributeKey<String> MESSAGING_SYSTEM = AttributeKey.stringKey("messaging.system");
    public static final AttributeKey<String> DESTINATION = AttributeKey.stringKey("messaging.destination.name");
    /** {@code send} on a publish, {@code process} on a delivery. */
    public static final AttributeKey<String> OPERATION_TYPE = AttributeKey.stringKey("messaging.operation.type");
    /** {@code publish} or {@code process}: the first word of the span's name. */
    public static final AttributeKey<String> OPERATION_NAME = AttributeKey.stringKey("messaging.operation.name");
    /** The task id. */
    public static final AttributeKey<String> MESSAGE_ID = AttributeKey.stringKey("messaging.message.id");
    /** The consumer holding the task. */
    public static final AttributeKey<String> CLIENT_ID = AttributeKey.stringKey("messaging.client.id");
    /** How many tasks the publish that made the span carried, when more than one. */
    public static final AttributeKey<Long> BATCH_COUNT = AttributeKey.longKey("messaging.batch.message_count");

    /** The partition as Ordo writes it: {@code !account-42} for the ordered partition {@code account-42}. */
    public static final AttributeKey<String> PARTITION = AttributeKey.stringKey("ordo.partition");
    /** 1 on a task's first delivery, 2 on the next, and so on. */
    public static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("ordo.attempt");
    /** What the worker does with the task after this run: {@code success}, {@code retry}, {@code fail}, {@code rate-limited}. */
    public static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("ordo.outcome");
    /** What the publish did with the task: {@code created}, or {@code duplicate} when its id was taken. */
    public static final AttributeKey<String> PUBLISH_OUTCOME = AttributeKey.stringKey("ordo.publish.outcome");
    /** On the {@value #RECLAIMED_EVENT} event: {@code holder-stopped-heartbeating} or {@code processing-timed-out}. */
    public static final AttributeKey<String> RECLAIM_CAUSE = AttributeKey.stringKey("ordo.reclaim.cause");
    /** On the {@value #RECLAIMED_EVENT} event: the error reclaim gave the task. */
    public static final AttributeKey<String> LAST_ERROR = AttributeKey.stringKey("ordo.last_error");

    /** The value of {@link #MESSAGING_SYSTEM}. */
    public static final String SYSTEM = "ordo";
    /** The event on a process span whose task came back because its last holder died or timed out. */
    public static final String RECLAIMED_EVENT = "ordo.reclaimed";

    private SpanAttributes() {
    }
}
