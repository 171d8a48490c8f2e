package io.ordo.tck;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The part of the contract a sharded store keeps: {@code @ExtendWith(ShardedStoreSubset.class)} on a kit
 * subclass whose store spreads partitions over shards skips, with the reason, the tests that rely on
 * a promise that holds only within one shard (docs/scaling.md). Everything else runs unchanged. The
 * tests are named here by nested group and method, and every name is checked to exist in the kit,
 * so a renamed test fails loudly instead of slipping out of the subset.
 */
public final class ShardedStoreSubset implements ExecutionCondition {
    static final String ORDER_ACROSS_SHARDS = "order across partitions (priority, round robin, which partition a consume"
            + " serves first) holds within a shard; consumers take the shards in turn, so partitions on different"
            + " shards have no order between them";
    static final String ID_PER_SHARD = "an id is unique within its shard: the same id published again under another"
            + " partition (the kit's task(id) makes a fresh one each time) may land on another shard and be created";
    static final String SEQ_PER_SHARD = "seq counts per shard: tasks of partitions on different shards are numbered"
            + " apart";
    static final String DEATH_ORDER_PER_SHARD = "dead letters of the same millisecond on different shards are listed"
            + " in shard order: which died first is known only within a shard";

    /** Group (every test in it) or Group.method, and why it does not hold across shards. */
    private static final Map<String, String> SKIPPED = new LinkedHashMap<>();

    static {
        SKIPPED.put("Fairness", ORDER_ACROSS_SHARDS);
        skip(ORDER_ACROSS_SHARDS,
                "Publish.binary_payloads_empty_payloads_and_headers_come_back_byte_for_byte",
                "OrderedPartitions.other_partitions_are_served_while_an_ordered_partition_is_held",
                "OrderedPartitions.one_consume_takes_a_whole_ordered_run_and_goes_on_with_other_partitions",
                "OrderedPartitions.a_delayed_high_priority_task_blocks_an_ordered_partition_but_not_a_regular_one",
                "OrderedPartitions.ordered_and_regular_partitions_with_the_same_name_are_different_partitions",
                "Reject.reject_can_block_the_partition_in_the_same_step",
                "Release.releasing_a_task_not_held_is_lease_lost",
                "BlockPartition.blocking_one_partition_leaves_the_others_served",
                "Reclaim.reclaim_returns_every_in_flight_task_of_a_dead_consumer_in_order_with_attempts_kept",
                "Cancel.outcomes_come_back_in_the_order_of_the_ids_given",
                "Get.acked_cancelled_and_unknown_tasks_are_absent",
                "HostileNamesNeverCollide.partition_codes_with_special_characters_are_kept_apart",
                "HostileNamesNeverCollide.hostile_partition_codes_never_share_a_lock_or_a_block");
        skip(ID_PER_SHARD,
                "Publish.publishing_an_id_that_exists_is_a_duplicate_and_changes_nothing",
                "Publish.an_id_in_flight_or_dead_is_still_a_duplicate",
                "Settings.a_dedup_window_makes_a_republished_acked_id_a_duplicate_while_it_lasts",
                "Stats.totals_count_creations_acks_and_dead_letterings_since_the_queue_began");
        skip(SEQ_PER_SHARD,
                "Publish.seq_counts_up_from_one_in_publish_order_within_and_across_batches");
        skip(DEATH_ORDER_PER_SHARD,
                "DeadLetters.dead_letters_of_the_same_millisecond_are_listed_in_the_order_they_died",
                "DeadLetters.dead_letters_are_paged_by_offset_and_limit");
        SKIPPED.keySet().forEach(ShardedStoreSubset::checkExists);
    }

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        Optional<Class<?>> group = context.getTestClass();
        if (group.isEmpty() || group.get().getEnclosingClass() != TaskStoreCompatibilityKit.class) {
            return ConditionEvaluationResult.enabled("not a contract group");
        }
        String groupName = group.get().getSimpleName();
        String reason = SKIPPED.get(groupName);
        if (reason == null && context.getTestMethod().isPresent()) {
            reason = SKIPPED.get(groupName + "." + context.getTestMethod().get().getName());
        }
        return reason == null ? ConditionEvaluationResult.enabled("holds across shards")
                : ConditionEvaluationResult.disabled("holds within one shard only: " + reason);
    }

    /** How many kit tests the subset skips. */
    public static int skippedTests() {
        return SKIPPED.keySet().stream().mapToInt(name -> name.contains(".") ? 1 : testsIn(group(name))).sum();
    }

    private static void skip(String reason, String... tests) {
        for (String test : tests) {
            SKIPPED.put(test, reason);
        }
    }

    private static void checkExists(String name) {
        String[] parts = name.split("\\.");
        Class<?> group = group(parts[0]);
        if (parts.length == 2 && Arrays.stream(group.getDeclaredMethods()).map(Method::getName)
                .noneMatch(parts[1]::equals)) {
            throw new IllegalStateException("the contract kit has no test " + name + ": update ShardedStoreSubset");
        }
    }

    private static Class<?> group(String name) {
        return Arrays.stream(TaskStoreCompatibilityKit.class.getDeclaredClasses())
                .filter(nested -> nested.getSimpleName().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalStateException("the contract kit has no group " + name
                        + ": update ShardedStoreSubset"));
    }

    private static int testsIn(Class<?> group) {
        return (int) Arrays.stream(group.getDeclaredMethods())
                .filter(method -> method.isAnnotationPresent(org.junit.jupiter.api.Test.class)).count();
    }
}
