#!lua flags=allow-oom
-- Deletes tasks the consumer holds. Reply: per id 1 acked, 0 lease lost.
-- allow-oom: acking frees memory, so it must work on a full server.
-- The records are read with one HMGET and a group of regular tasks leaves the indexes with one command
-- per index (a worker acks the tasks that finish during an ack call together in the next one).
local clock = ARGV[1]
local consumer = ARGV[2]
local FIRST_ID = 3
local CHUNK = 1000 -- ids per command: unpack has a limit, and a command stays short

local NOW = start(clock)
local window = settings().dedup_window
call('ZREMRANGEBYSCORE', K_ACKED, '-inf', NOW)
local reply = {}
local regular, remembered = {}, {}
local acked = 0
local seen = {}
for first = FIRST_ID, #ARGV, CHUNK do
    local last = math.min(first + CHUNK - 1, #ARGV)
    local records = call('HMGET', K_TASKS, unpack(ARGV, first, last))
    for i = first, last do
        local id = ARGV[i]
        local s = records[i - first + 1]
        local r = s and not seen[id] and decode(s) -- an id named twice is acked once
        seen[id] = true
        if r and r.state == STATE_IN_FLIGHT and r.holder == consumer then
            if is_ordered(r.code) then
                -- its partition's lock goes once the holder has nothing left of it: one at a time
                leave_flight(id, r)
                call('HDEL', K_TASKS, id)
                release_lock_if_done(consumer, r.code)
            else
                regular[#regular + 1] = id
            end
            if window > 0 then
                remembered[#remembered + 1] = NOW + window
                remembered[#remembered + 1] = id
            end
            acked = acked + 1
            reply[#reply + 1] = 1
        else
            reply[#reply + 1] = 0
        end
    end
end
local held = consumer_key(consumer)
for first = 1, #regular, CHUNK do
    local last = math.min(first + CHUNK - 1, #regular)
    call('ZREM', K_LEASED, unpack(regular, first, last))
    call('ZREM', held, unpack(regular, first, last))
    call('HDEL', K_TASKS, unpack(regular, first, last))
end
for first = 1, #remembered, 2 * CHUNK do
    call('ZADD', K_ACKED, unpack(remembered, first, math.min(first + 2 * CHUNK - 1, #remembered)))
end
if acked > 0 then call('HINCRBY', K_META, 'ackedTotal', acked) end
finish(true) -- an ack of regular tasks touches no partition: nothing new to signal
return reply
