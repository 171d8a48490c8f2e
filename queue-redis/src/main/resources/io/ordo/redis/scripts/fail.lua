#!lua flags=allow-oom
-- Sends held tasks straight to the dead letters. In an ordered partition the tasks after it stay
-- held. Reply: per id 1 dead-lettered, 0 lease lost.
local clock = ARGV[1]
local consumer = ARGV[2]
local reason = ARGV[3]
local FIRST_ID = 4

local NOW = start(clock)
local reply = {}
for i = FIRST_ID, #ARGV do
    local id = ARGV[i]
    local r = load(id)
    if r and r.state == STATE_IN_FLIGHT and r.holder == consumer then
        leave_flight(id, r)
        bury(id, r, reason)
        release_lock_if_done(consumer, r.code)
        reply[#reply + 1] = 1
    else
        reply[#reply + 1] = 0
    end
end
finish()
return reply
