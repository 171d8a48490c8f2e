package io.ordo.domain;

/** A task delivered to a consumer: it holds the task until it acks, rejects, fails or releases it, or is declared dead. */
public record Lease(Task task, ConsumerId consumer, long leasedAt) {
    public TaskId id() {
        return task.id();
    }

    public Partition partition() {
        return task.partition();
    }
}
