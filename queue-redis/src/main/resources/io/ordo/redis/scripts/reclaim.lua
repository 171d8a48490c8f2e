#!lua flags=allow-oom
-- Returns the tasks of consumers whose heartbeat expired, and (with a processing timeout) tasks held
-- too long by live ones. Atomic, so every live consumer may run it at once.
-- Reply: {returned, dead-lettered, timed out, dead consumer names...}.
local clock = ARGV[1]

local NOW = start(clock)
local s = settings()
local returned, buried, timed_out = 0, 0, 0

-- back in place with the attempt counted, or a dead letter once out of attempts
local function take_back_crashed(id, r, reason)
    if r.attempts >= s.max_attempts then
        bury(id, r, reason)
        buried = buried + 1
    else
        r.error = reason
        put_waiting(id, r)
        returned = returned + 1
    end
end

local dead = call('ZRANGEBYSCORE', K_CONSUMERS, '-inf', NOW)
table.sort(dead, function(a, b) return bytes_before(java_order_key(a), java_order_key(b)) end)
for _, consumer in ipairs(dead) do
    call('ZREM', K_CONSUMERS, consumer)
    call('HDEL', K_HEARTBEATS, consumer)
    local held = consumer_key(consumer)
    local ordered = {}
    for _, id in ipairs(call('ZRANGE', held, 0, -1)) do
        local r = load(id)
        leave_flight(id, r)
        if is_ordered(r.code) then ordered[#ordered + 1] = r.code end
        -- the same texts as Reasons.holderStoppedHeartbeating / processingTimedOut: workers recognise them
        take_back_crashed(id, r, 'consumer ' .. consumer .. ' stopped heartbeating')
    end
    call('DEL', held)
    for _, code in ipairs(ordered) do
        if call('HGET', K_LOCKS, code) == consumer then
            call('HDEL', K_LOCKS, code)
            call('HDEL', K_LOCK_SINCE, code)
            touch(code)
        end
    end
end

if s.processing_timeout > 0 then
    local reason = 'processing timed out after ' .. int(s.processing_timeout) .. ' ms'
    local overdue = {}
    for _, id in ipairs(call('ZRANGEBYSCORE', K_LEASED, '-inf', NOW - s.processing_timeout)) do
        overdue[#overdue + 1] = { id = id, m = member(load(id), id) }
    end
    -- key order: within an ordered batch the first task by key is the one that timed out
    table.sort(overdue, function(a, b) return member_before(a.m, b.m) end)
    for _, o in ipairs(overdue) do
        local r = load(o.id)
        if r and r.state == STATE_IN_FLIGHT then -- not already returned with an earlier task of its batch
            timed_out = timed_out + 1
            local holder, m = r.holder, o.m
            leave_flight(o.id, r, m)
            take_back_crashed(o.id, r, reason)
            if is_ordered(r.code) then
                for _, later in ipairs(call('ZRANGEBYLEX', flight_key(r.code), '(' .. m, '+')) do
                    local id = member_id(later)
                    local lr = load(id)
                    if lr and lr.state == STATE_IN_FLIGHT and lr.holder == holder then
                        leave_flight(id, lr, later)
                        lr.attempts = lr.attempts - 1 -- it never ran
                        put_waiting(id, lr)
                        returned = returned + 1
                    end
                end
            end
            release_lock_if_done(holder, r.code)
        end
    end
end

finish()
local reply = { returned, buried, timed_out }
for _, consumer in ipairs(dead) do reply[#reply + 1] = consumer end
return reply
