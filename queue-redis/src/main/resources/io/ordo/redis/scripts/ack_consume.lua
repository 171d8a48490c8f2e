#!lua flags=allow-oom
-- Acks the named tasks the consumer holds, then takes up to max due tasks (O.ack, then O.take), as one
-- step: a worker's acks ride on its next fetch.
-- Reply: {ms until something may fall due (-1: nothing will; -2: call again at once), now, n, per acked id
-- 1 acked or 0 lease lost, the n ids the consumer holds whose cancellation was asked (docs/task-control.md),
-- then id and record of each task taken}.
local clock = ARGV[1]
local consumer = ARGV[2]
local max = tonumber(ARGV[3])
local acks = tonumber(ARGV[4])
local FIRST_ID = 5

local NOW = start(clock)
local reply = { -1, NOW, 0 }
-- what the take will touch is checked before the acks write anything (O.verify)
ack(consumer, ARGV, FIRST_ID, FIRST_ID + acks - 1, reply, function() O.take_prepare(consumer, max) end)
reply[3] = O.cancels_of(consumer, reply)
local acks_touched = #O.touched_order > 0
refresh_touched() -- a lock the acks released makes its partition eligible for this consume
local _, ready_left, promoting = take(consumer, max, reply)
reply[1] = until_next_timer(promoting)
if max == 0 then -- only acks: they made work available only if they released a lock
    ready_left = not acks_touched and false or nil
end
finish(ready_left)
return reply
