package io.ordo.ports;

import io.ordo.domain.TaskId;

/** One task's publish result; a batch's receipts are in the batch's order. */
public record PublishReceipt(TaskId id, PublishOutcome outcome) {
}
