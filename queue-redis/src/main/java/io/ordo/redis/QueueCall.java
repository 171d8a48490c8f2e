package io.ordo.redis;

import java.util.List;

/**
 * One function called on a store's keys, or on the queue's own (publishing, schedules, the groups'
 * administration): its reply.
 */
@FunctionalInterface
interface QueueCall {
    List<Object> run(RedisScript script, Args args);
}
