#!lua flags=allow-oom
-- Registers or refreshes a consumer: alive until now + ttl; keeps the progress reported for the tasks it
-- holds (others are ignored) and answers the tasks it holds whose cancellation was asked
-- (docs/task-control.md). ARGV: clock, consumer, ttl, then per report: id, progress (percent(1) message).
-- Reply: the ids whose cancellation was asked.
local clock = ARGV[1]
local consumer = ARGV[2]
local ttl = tonumber(ARGV[3])
local FIRST_REPORT = 4

local NOW = start(clock)
O.verify_fixed()
if #ARGV >= FIRST_REPORT then
    O.verify_consumer(consumer)
    O.verify_control()
end
call('ZADD', K_CONSUMERS, NOW + ttl, consumer)
call('HSET', K_HEARTBEATS, consumer, NOW)
local holding = holding_key(consumer)
local holder_part = O.control_holder_part(consumer)
for i = FIRST_REPORT, #ARGV, 2 do
    local id = ARGV[i]
    if call('HEXISTS', holding, id) == 1 then
        if call('HSET', O.K_CONTROL, id, holder_part .. struct.pack('>I6', NOW) .. ARGV[i + 1]) == 1 then
            count('controlled', 1)
        end
    end
end
local reply = {}
O.cancels_of(consumer, reply)
O.save_counters()
return reply
