#!lua flags=allow-oom
-- Returns the tasks of consumers whose heartbeat expired, and (with a processing timeout) tasks held
-- too long by live ones. Atomic, so every live consumer may run it at once. A dead consumer's tasks are
-- taken back at most RECLAIM_CHUNK per call: the store calls again while the reply says more remain.
-- Reply: {returned, dead-lettered, timed out, 1 if more remain, names of the dead consumers done...}.
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

-- The tasks a consumer holds, in flight view: {id, record}; at most `limit` of them (a sample, when it
-- holds more), or all. Read for every consumer this call looks at before anything is written (O.verify).
local function read_held(consumer, limit)
    O.verify_consumer(consumer)
    local key = holding_key(consumer)
    local leases
    if limit and call('HLEN', key) > limit then
        leases = call('HRANDFIELD', key, limit, 'WITHVALUES')
    else
        leases = call('HGETALL', key)
    end
    local held = {}
    for i = 1, #leases, 2 do
        local id = leases[i]
        local r = as_held(load(id), consumer, leases[i + 1])
        O.verify_partition(r.code)
        held[#held + 1] = { id = id, r = r }
    end
    return held
end

O.verify_fixed()
-- dead consumers in name order, each taken back whole while the chunk allows, the last one maybe in part
local dead = call('ZRANGEBYSCORE', K_CONSUMERS, '-inf', NOW)
table.sort(dead, function(a, b) return bytes_before(java_order_key(a), java_order_key(b)) end)
local budget, more = O.RECLAIM_CHUNK, false
local reclaiming = {}
for _, consumer in ipairs(dead) do
    if budget <= 0 then
        more = true
        break
    end
    local held = read_held(consumer, budget)
    local whole = call('HLEN', holding_key(consumer)) == #held
    reclaiming[#reclaiming + 1] = { consumer = consumer, held = held, whole = whole }
    budget = budget - #held
    if not whole then more = true end
end
-- live consumers' leases, for the processing timeout: a consumer's holdings do not change while another's
-- are taken back, so they are read now and used below
local live_held = {}
local live = {}
if s.processing_timeout > 0 then
    live = call('ZRANGEBYSCORE', K_CONSUMERS, '(' .. int(NOW), '+inf')
    for _, consumer in ipairs(live) do live_held[consumer] = read_held(consumer, nil) end
end

local done = {}
local began, out_of_time = O.server_micros(), false
for _, c in ipairs(reclaiming) do
    local consumer, held = c.consumer, c.held
    table.sort(held, function(a, b) return a.r.seq < b.r.seq end)
    local ordered = {}
    local taken_back = 0
    for i, h in ipairs(held) do
        leave_flight(h.id, h.r)
        if is_ordered(h.r.code) then ordered[#ordered + 1] = h.r.code end
        -- the same texts as Reasons.holderStoppedHeartbeating / processingTimedOut: workers recognise them
        take_back_crashed(h.id, h.r, 'consumer ' .. consumer .. ' stopped heartbeating')
        taken_back = i
        if i % 32 == 0 and O.spent(began, O.CHUNK_MICROS) then
            out_of_time = true
            break
        end
    end
    -- a lock goes once the consumer holds nothing more of its partition (it may, between chunks)
    for _, code in ipairs(ordered) do release_lock_if_done(consumer, code) end
    if c.whole and taken_back == #held then
        call('ZREM', K_CONSUMERS, consumer)
        call('HDEL', K_HEARTBEATS, consumer)
        done[#done + 1] = consumer
    end
    if out_of_time then
        more = true
        break
    end
end

if s.processing_timeout > 0 and not out_of_time then -- (else in the next call)
    local reason = 'processing timed out after ' .. int(s.processing_timeout) .. ' ms'
    local overdue = {}
    for _, consumer in ipairs(live) do
        for _, h in ipairs(live_held[consumer]) do
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
local reply = { returned, buried, timed_out, more and 1 or 0 }
for _, consumer in ipairs(done) do reply[#reply + 1] = consumer end
return reply
