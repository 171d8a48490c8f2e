#!lua flags=allow-oom
-- Deletes waiting tasks and dead letters; marks tasks in flight (docs/task-control.md): their holder learns
-- it on its next heartbeat or fetch, and they end as cancelled when they leave its hands.
-- A completed task kept with its result is deleted too. Reply: per id 1 cancelled, 2 cancellation asked (in
-- flight), 0 unknown.
local clock = ARGV[1]
local FIRST_ID = 2

local NOW = start(clock)
O.verify_fixed()
O.verify_control()
O.verify_results()
local records, waiting = {}, {}
for i = FIRST_ID, #ARGV do
    local id = ARGV[i]
    local r = not records[id] and load(id)
    if r then
        O.verify_partition(r.code)
        records[id] = r
        if r.state == STATE_WAITING then waiting[#waiting + 1] = id end
    end
end
local held = holders(waiting)
local reply = {}
for i = FIRST_ID, #ARGV do
    local id = ARGV[i]
    local r = records[id]
    if not r or r.cancelled then
        reply[#reply + 1] = 0
    elseif held[id] then
        local holder = held[id][1]
        O.control(id, holder)
        call('HSET', O.K_CANCELS, id, holder)
        reply[#reply + 1] = 2
    else
        r.cancelled = true
        if r.state == STATE_WAITING then
            local was_delayed = call('ZREM', K_DELAYED, id) == 1
            if was_delayed and not is_ordered(r.code) then
                park(r.code, -1) -- not in its partition yet
            elseif call('ZREM', rest_key(r.code), member(r, id)) == 1 then
                count('rest', -1)
                park(r.code, -1)
            else
                count('stale', 1) -- its list member stays behind until it reaches the front
                call('HINCRBY', K_STALE, r.code, 1)
            end
            leave_waiting(r)
        elseif r.state == STATE_COMPLETED then
            O.forget_completed({ id })
        else
            call('ZREM', K_DEAD, id)
        end
        if r.state ~= STATE_COMPLETED then
            O.delete_records({ id })
            O.event(O.EVENT_CANCELLED, id, r.code)
        end
        reply[#reply + 1] = 1
    end
end
finish()
return reply
