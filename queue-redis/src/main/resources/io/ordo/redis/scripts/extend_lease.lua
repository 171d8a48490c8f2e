#!lua flags=allow-oom
-- Moves the deadline of tasks the consumer holds to now + extension, in place of their own or the queue's
-- processing timeout (docs/task-control.md). ARGV: clock, consumer, extension ms, ids.
-- Reply: per id 1 extended, 2 cancellation asked (not extended), 0 lease lost.
local clock = ARGV[1]
local consumer = ARGV[2]
local extension = tonumber(ARGV[3])
local FIRST_ID = 4

local NOW = start(clock)
O.verify_fixed()
O.verify_consumer(consumer)
O.verify_control()
local holding = holding_key(consumer)
local reply = {}
for i = FIRST_ID, #ARGV do
    local id = ARGV[i]
    if call('HEXISTS', holding, id) == 0 then
        reply[#reply + 1] = 0
    elseif O.cancel_requested(id) then
        reply[#reply + 1] = 2
    else
        O.control(id, consumer)
        call('ZADD', O.K_DEADLINES, NOW + extension, id)
        reply[#reply + 1] = 1
    end
end
O.save_counters()
return reply
