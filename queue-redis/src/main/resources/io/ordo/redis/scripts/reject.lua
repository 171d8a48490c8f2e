#!lua flags=allow-oom
-- Returns held tasks at their positions, ready after the delay; out of attempts means dead letter.
-- Reply: see give_back; outcomes 0 lease lost, 1 returned, 2 dead-lettered, 3 returned with batch, 4 cancelled.
local clock = ARGV[1]
local consumer = ARGV[2]
local delay = tonumber(ARGV[3])
local reason = ARGV[4]
local block_for = tonumber(ARGV[5])
local FIRST_ID = 6

local NOW = start(clock)
local max_attempts = settings().max_attempts
local ids = {}
for i = FIRST_ID, #ARGV do ids[#ids + 1] = ARGV[i] end

local reply, named = give_back(consumer, ids, function(id, r, is_named)
    if not is_named then
        r.attempts = r.attempts - 1 -- it never ran
        put_waiting(id, r)
        return 3
    end
    if r.attempts >= O.max_attempts(r, max_attempts) then
        bury(id, r, reason)
        return 2
    end
    r.ready, r.error, r.cause = NOW + delay, reason, nil
    if not is_ordered(r.code) then r.due = r.ready end -- an ordered task keeps its place
    put_waiting(id, r)
    O.event(O.EVENT_FAILED, id, r.code, reason)
    return 1
end, 4)
if block_for > 0 then
    for _, r in pairs(named) do
        if not r.cancelled then -- a cancelled task left: its partition is not blocked for it
            call('ZADD', K_BLOCKED, 'GT', NOW + block_for, r.code)
            note_timer(NOW + block_for)
            O.any_blocked = nil
            touch(r.code)
        end
    end
end
finish()
return reply
