#!lua flags=allow-oom
-- Sends held tasks straight to the dead letters. In an ordered partition the tasks after it stay
-- held. Reply: per id 1 dead-lettered, 0 lease lost, 2 cancelled (its cancellation was asked: deleted).
local clock = ARGV[1]
local consumer = ARGV[2]
local reason = ARGV[3]
local FIRST_ID = 4

start(clock)
O.verify_fixed()
O.verify_consumer(consumer)
local held = {}
for i = FIRST_ID, #ARGV do
    local id = ARGV[i]
    local r = not held[id] and load_held(consumer, id)
    if r then
        O.verify_partition(r.code)
        held[id] = r
    end
end
local reply = {}
for i = FIRST_ID, #ARGV do
    local id = ARGV[i]
    local r = held[id]
    held[id] = nil -- an id named twice is dead-lettered once
    if r then
        local cancelled = O.cancel_requested(id)
        leave_flight(id, r)
        if cancelled then O.drop_cancelled(id, r.code) else bury(id, r, reason) end
        release_lock_if_done(consumer, r.code)
        reply[#reply + 1] = cancelled and 2 or 1
    else
        reply[#reply + 1] = 0
    end
end
finish()
return reply
