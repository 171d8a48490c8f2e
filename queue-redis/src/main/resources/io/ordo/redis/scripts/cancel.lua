#!lua flags=allow-oom
-- Deletes waiting tasks and dead letters. Reply: per id 1 cancelled, 2 in flight, 0 unknown.
local clock = ARGV[1]
local FIRST_ID = 2

local NOW = start(clock)
local reply = {}
for i = FIRST_ID, #ARGV do
    local id = ARGV[i]
    local r = load(id)
    if not r then
        reply[#reply + 1] = 0
    elseif r.state == STATE_IN_FLIGHT then
        reply[#reply + 1] = 2
    else
        if r.state == STATE_WAITING then
            local was_delayed = call('ZREM', K_DELAYED, id) == 1
            if call('ZREM', rest_key(r.code), member(r, id)) == 1 then
                count('rest', -1)
            elseif is_ordered(r.code) or not was_delayed then
                count('stale', 1) -- its list member stays behind until it reaches the front
            end
            leave_waiting(r)
        else
            call('ZREM', K_DEAD, id)
        end
        call('HDEL', K_TASKS, id)
        reply[#reply + 1] = 1
    end
end
finish()
return reply
