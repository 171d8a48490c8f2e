package io.ordo.redis;

import java.util.List;

/** One function called on a queue's own keys (publishing, schedules, the groups' administration): its reply. */
@FunctionalInterface
interface QueueCall {
    List<Object> run(RedisScript script, Args args);
}
