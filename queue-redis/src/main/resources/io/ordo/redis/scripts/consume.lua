#!lua flags=allow-oom
-- Takes up to max due tasks for a consumer in queue order (O.take). Also registers the consumer.
-- Reply: {ms until something may fall due (-1: nothing will; -2: call again at once), now, then id and
-- record of each task taken}.
-- allow-oom: consuming (then acking) is how a full server gets memory back.
local clock = ARGV[1]
local consumer = ARGV[2]
local max = tonumber(ARGV[3])

local NOW = start(clock)
local reply = { -1, NOW }
local _, ready_left, promoting = take(consumer, max, reply)
reply[1] = until_next_timer(promoting)
finish(ready_left)
return reply
