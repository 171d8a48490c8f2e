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

-- The tasks a consumer holds, in flight view: {id, record} in the order of leases read. Read for every
-- consumer this call may look at before anything is written (O.verify), and kept: the holdings of one
-- consumer do not change while another's are taken back.
local holdings = {}
local function held_by(consumer)
    if holdings[consumer] then return holdings[consumer] end
    O.verify_consumer(consumer)
    local leases = call('HGETALL', holding_key(consumer))
    local held = {}
    for i = 1, #leases, 2 do
        local id = leases[i]
        local r = as_held(load(id), consumer, leases[i + 1])
        O.verify_partition(r.code)
        held[#held + 1] = { id = id, r = r }
    end
    holdings[consumer] = held
    return held
end

O.verify_fixed()
local dead = call('ZRANGEBYSCORE', K_CONSUMERS, '-inf', NOW)
local looked_at = dead
if s.processing_timeout > 0 then looked_at = call('ZRANGE', K_CONSUMERS, 0, -1) end
for _, consumer in ipairs(looked_at) do held_by(consumer) end
table.sort(dead, function(a, b) return bytes_before(java_order_key(a), java_order_key(b)) end)
for _, consumer in ipairs(dead) do
    call('ZREM', K_CONSUMERS, consumer)
    call('HDEL', K_HEARTBEATS, consumer)
    local held = held_by(consumer)
    table.sort(held, function(a, b) return a.r.seq < b.r.seq end)
    local ordered = {}
    for _, h in ipairs(held) do
        leave_flight(h.id, h.r)
        if is_ordered(h.r.code) then ordered[#ordered + 1] = h.r.code end
        -- the same texts as Reasons.holderStoppedHeartbeating / processingTimedOut: workers recognise them
        take_back_crashed(h.id, h.r, 'consumer ' .. consumer .. ' stopped heartbeating')
    end
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
    for _, consumer in ipairs(call('ZRANGE', K_CONSUMERS, 0, -1)) do
        for _, h in ipairs(held_by(consumer)) do
            if h.r.at + s.processing_timeout <= NOW then
                h.holder, h.m = consumer, member(h.r, h.id)
                overdue[#overdue + 1] = h
            end
        end
    end
    -- key order: within an ordered batch the first task by key is the one that timed out
    table.sort(overdue, function(a, b) return member_before(a.m, b.m) end)
    for _, o in ipairs(overdue) do
        local r = load_held(o.holder, o.id)
        if r then -- not already returned with an earlier task of its batch
            timed_out = timed_out + 1
            leave_flight(o.id, r, o.m)
            take_back_crashed(o.id, r, reason)
            if is_ordered(r.code) then
                for _, later in ipairs(call('ZRANGEBYLEX', flight_key(r.code), '(' .. o.m, '+')) do
                    local id = member_id(later)
                    local lr = load_held(o.holder, id)
                    if lr then
                        leave_flight(id, lr, later)
                        lr.attempts = lr.attempts - 1 -- it never ran
                        put_waiting(id, lr)
                        returned = returned + 1
                    end
                end
            end
            release_lock_if_done(o.holder, r.code)
        end
    end
end

finish()
local reply = { returned, buried, timed_out }
for _, consumer in ipairs(dead) do reply[#reply + 1] = consumer end
return reply
