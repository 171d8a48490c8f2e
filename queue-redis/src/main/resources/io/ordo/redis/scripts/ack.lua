#!lua flags=allow-oom
-- Deletes tasks the consumer holds. Reply: per id 1 acked, 0 lease lost.
-- allow-oom: acking frees memory, so it must work on a full server.
local clock = ARGV[1]
local consumer = ARGV[2]
local FIRST_ID = 3

local NOW = start(clock)
local window = settings().dedup_window
call('ZREMRANGEBYSCORE', K_ACKED, '-inf', NOW)
local reply = {}
local acked = 0
for i = FIRST_ID, #ARGV do
    local id = ARGV[i]
    local r = load(id)
    if r and r.state == STATE_IN_FLIGHT and r.holder == consumer then
        leave_flight(id, r)
        call('HDEL', K_TASKS, id)
        if window > 0 then call('ZADD', K_ACKED, NOW + window, id) end
        release_lock_if_done(consumer, r.code)
        acked = acked + 1
        reply[#reply + 1] = 1
    else
        reply[#reply + 1] = 0
    end
end
if acked > 0 then call('HINCRBY', K_META, 'ackedTotal', acked) end
finish(true) -- an ack of regular tasks touches no partition: nothing new to signal
return reply
