#!lua flags=allow-oom
-- Returns the tasks of consumers whose heartbeat expired, and (with a processing timeout) tasks held
-- too long by live ones. Atomic, so every live consumer may run it at once. Every call does a bounded
-- chunk: at most RECLAIM_CHUNK tasks of dead consumers or TIMEOUT_CHUNK overdue ones taken back, at
-- most TIMEOUT_SCAN live leases looked at, and no more
-- once it has run CHUNK_MICROS; the store calls again while the reply gives a cursor.
-- ARGV: clock, cursor ('' to begin; else where the scan of live leases goes on: consumer NUL hscan-cursor).
-- A task whose cancellation was asked is deleted instead of being put back (docs/task-control.md).
-- Reply: {returned, dead-lettered, timed out, cancelled, cursor ('' when done), names of the dead consumers done...}.
local clock, cursor = ARGV[1], ARGV[2] or ''

local NOW = start(clock)
local began = O.server_micros()
local s = settings()
local returned, buried, timed_out, cancelled = 0, 0, 0, 0

-- back in place with the attempt counted, or a dead letter once out of attempts
local function take_back_crashed(id, r, reason, cause)
    if r.attempts >= O.max_attempts(r, s.max_attempts) then
        bury(id, r, reason, cause)
        buried = buried + 1
    else
        r.error, r.cause = reason, cause
        put_waiting(id, r)
        O.event(O.EVENT_FAILED, id, r.code, reason)
        returned = returned + 1
    end
end

-- At most `limit` of the tasks a dead consumer holds (a sample, when it holds more), in flight view:
-- {id, record}. Read for every consumer this call looks at before anything is written (O.verify).
local function read_held(consumer, limit)
    O.verify_consumer(consumer)
    local key = holding_key(consumer)
    local leases
    if call('HLEN', key) > limit then
        leases = call('HRANDFIELD', key, limit, 'WITHVALUES')
    else
        leases = call('HGETALL', key)
    end
    local ids = {}
    for i = 1, #leases, 2 do ids[#ids + 1] = leases[i] end
    local held = {}
    for i, record in ipairs(O.load_records(ids)) do
        local r = as_held(O.decode(record), consumer, leases[2 * i])
        O.verify_joining(r.code)
        held[i] = { id = ids[i], r = r }
    end
    return held
end

O.verify_fixed()
O.unsaved = {} -- the records are written with one HSET by finish()
local budget = O.RECLAIM_CHUNK

-- ---------------------------------------------------------------- dead consumers
-- in name order, each taken back whole while the chunk allows, the last one maybe in part
local dead_more = false -- dead consumers' tasks left for the next call
local dead = call('ZRANGEBYSCORE', K_CONSUMERS, '-inf', NOW)
table.sort(dead, function(a, b) return bytes_before(java_order_key(a), java_order_key(b)) end)
local reclaiming = {}
for _, consumer in ipairs(dead) do
    if budget <= 0 then
        dead_more = true
        break
    end
    local held = read_held(consumer, budget)
    local whole = call('HLEN', holding_key(consumer)) == #held
    reclaiming[#reclaiming + 1] = { consumer = consumer, held = held, whole = whole }
    budget = budget - #held
    if not whole then dead_more = true end
end

local done = {}
-- The budget counts the applying only: the reads above are bounded by the chunk, and counting them made
-- a call drop most of what it had read (five times the calls for the same work).
local applying = O.server_micros()
local out_of_time = false
for _, c in ipairs(reclaiming) do
    local consumer, held = c.consumer, c.held
    table.sort(held, function(a, b) return a.r.seq < b.r.seq end)
    local ordered = {}
    local taken_back = {}
    local reason = 'consumer ' .. consumer .. ' stopped heartbeating' -- the same text as Reasons.holderStoppedHeartbeating
    for i, h in ipairs(held) do
        local cancel = O.cancel_requested(h.id)
        leave_flight(h.id, h.r, nil, true)
        if is_ordered(h.r.code) then ordered[#ordered + 1] = h.r.code end
        if cancel then
            O.drop_cancelled(h.id, h.r.code)
            cancelled = cancelled + 1
        else
            take_back_crashed(h.id, h.r, reason, O.HOLDER_STOPPED_HEARTBEATING)
        end
        taken_back[i] = h.id
        if i % 8 == 0 and O.spent(applying, O.CHUNK_MICROS) then
            out_of_time = true
            break
        end
    end
    if #taken_back > 0 then call('HDEL', holding_key(consumer), unpack(taken_back)) end
    -- a lock goes once the consumer holds nothing more of its partition (it may, between chunks)
    for _, code in ipairs(ordered) do release_lock_if_done(consumer, code) end
    if c.whole and #taken_back == #held then
        call('ZREM', K_CONSUMERS, consumer)
        call('HDEL', K_HEARTBEATS, consumer)
        done[#done + 1] = consumer
    end
    if out_of_time then
        dead_more = true
        break
    end
end

-- ---------------------------------------------------------------- live consumers' overdue tasks
-- The live leases are scanned a bounded slice per call (HSCAN by consumer, in name order), resumed
-- from the cursor by the next call; a lease's time is in its value, so only overdue tasks are loaded.
-- A call that took back dead consumers' tasks leaves the scan to the next one, so each call reads all
-- it will write before its first write (O.verify).
-- Tasks with a deadline of their own (`deadlines`: their own timeout, an extension) are found by it, the
-- earliest first, before the scan; the scan leaves them alone.
local next_cursor = ''
local controlled = O.controlled()
if #reclaiming > 0 then
    if dead_more or s.processing_timeout > 0 or controlled then
        next_cursor = cursor ~= '' and cursor or '\0' -- the scan (begun or not) goes on after the dead
    end
elseif s.processing_timeout > 0 or controlled then
    budget = O.TIMEOUT_CHUNK
    local overdue = {}
    local deadlines_left = false
    if controlled then
        local due = call('ZRANGEBYSCORE', O.K_DEADLINES, '-inf', NOW, 'WITHSCORES', 'LIMIT', 0, budget)
        deadlines_left = #due == 2 * budget
        for i = 1, #due, 2 do
            local id = due[i]
            local entry = call('HGET', O.K_CONTROL, id)
            local holder = entry and O.control_holder(entry)
            if holder then O.verify_consumer(holder) end
            local lease = holder and call('HGET', holding_key(holder), id)
            if lease then
                overdue[#overdue + 1] = { id = id, holder = holder, lease = lease,
                                          timeout = tonumber(due[i + 1]) - O.lease_time(lease) }
            end
        end
    end
    local live = s.processing_timeout <= 0 and {} or call('ZRANGEBYSCORE', K_CONSUMERS, '(' .. int(NOW), '+inf')
    table.sort(live, function(a, b) return bytes_before(java_order_key(a), java_order_key(b)) end)
    local resume_at, resume_scan = '', '0'
    if cursor ~= '' and cursor ~= '\0' then
        local cut = string.find(cursor, '\0', 1, true)
        resume_at, resume_scan = string.sub(cursor, 1, cut - 1), string.sub(cursor, cut + 1)
    end
    local resume_key = resume_at ~= '' and java_order_key(resume_at)
    local looked, pages = 0, 0
    local stopped_at -- the cursor the next call begins with, when this one stops early
    for _, consumer in ipairs(live) do
        local key = java_order_key(consumer)
        if not resume_key or not bytes_before(key, resume_key) then
            local scan = (consumer == resume_at) and resume_scan or '0'
            O.verify_consumer(consumer)
            repeat
                -- (at least one page a call: a server slow enough to spend the budget before the first
                -- page would otherwise never get further)
                if looked >= O.TIMEOUT_SCAN or #overdue >= budget or (pages > 0 and O.spent(began, O.CHUNK_MICROS)) then
                    stopped_at = consumer .. '\0' .. scan
                    break
                end
                local page = call('HSCAN', holding_key(consumer), scan, 'COUNT', O.TIMEOUT_SCAN_PAGE)
                pages = pages + 1
                local found = {}
                for i = 1, #page[2], 2 do
                    local id = page[2][i]
                    if O.lease_time(page[2][i + 1]) + s.processing_timeout <= NOW
                            and not (controlled and call('ZSCORE', O.K_DEADLINES, id)) then
                        found[#found + 1] = { id = id, holder = consumer, lease = page[2][i + 1],
                                              timeout = s.processing_timeout }
                    end
                end
                looked = looked + #page[2] / 2
                if #overdue + #found > budget then
                    -- this page again next call: what is taken back now is gone from it by then
                    for i = 1, budget - #overdue do overdue[#overdue + 1] = found[i] end
                    stopped_at = consumer .. '\0' .. scan
                    break
                end
                for _, o in ipairs(found) do overdue[#overdue + 1] = o end
                scan = page[1]
            until scan == '0'
            if stopped_at then break end
        end
    end
    next_cursor = stopped_at or ''
    if deadlines_left and next_cursor == '' then next_cursor = cursor ~= '' and cursor or '\0' end
    -- every overdue task's record and partition before the first write (O.verify)
    local ids = {}
    for i, o in ipairs(overdue) do ids[i] = o.id end
    for i, record in ipairs(O.load_records(ids)) do
        local o = overdue[i]
        o.r = as_held(O.decode(record), o.holder, o.lease)
        O.verify_joining(o.r.code)
        o.m = member(o.r, o.id)
    end
    -- key order: within an ordered batch the first task by key is the one that timed out
    table.sort(overdue, function(a, b) return member_before(a.m, b.m) end)
    local applying = O.server_micros()
    for i, o in ipairs(overdue) do
        if i % 8 == 0 and O.spent(applying, O.CHUNK_MICROS) then
            -- the rest next call: the slice is scanned again from where this call began, and what was
            -- taken back is gone from it
            next_cursor = cursor ~= '' and cursor or '\0'
            break
        end
        -- an ordered task may have gone back with an earlier one of its batch: read again
        local r = o.r
        if is_ordered(r.code) then r = load_held(o.holder, o.id) end
        if r then
            local id, m, timeout = o.id, o.m, o.timeout
            if is_ordered(r.code) then
                -- the batch's lowest late task (it may be in a page not scanned yet, or have a deadline of
                -- its own) is the one timed out
                for _, before in ipairs(call('ZRANGEBYLEX', flight_key(r.code), '-', '(' .. m)) do
                    local br = load_held(o.holder, member_id(before))
                    local deadline = br and O.deadline_of(member_id(before), br.at)
                    if deadline and deadline <= NOW then
                        id, m, r, timeout = member_id(before), before, br, deadline - br.at
                        break
                    end
                end
            end
            local cancel = O.cancel_requested(id)
            leave_flight(id, r, m)
            if cancel then
                O.drop_cancelled(id, r.code)
                cancelled = cancelled + 1
            else
                timed_out = timed_out + 1
                take_back_crashed(id, r, 'processing timed out after ' .. int(timeout) .. ' ms', O.PROCESSING_TIMED_OUT)
            end
            if is_ordered(r.code) then
                for _, later in ipairs(call('ZRANGEBYLEX', flight_key(r.code), '(' .. m, '+')) do
                    local later_id = member_id(later)
                    local lr = load_held(o.holder, later_id)
                    if lr then
                        local later_cancel = O.cancel_requested(later_id)
                        leave_flight(later_id, lr, later)
                        if later_cancel then
                            O.drop_cancelled(later_id, lr.code)
                            cancelled = cancelled + 1
                        else
                            lr.attempts = lr.attempts - 1 -- it never ran
                            put_waiting(later_id, lr)
                            returned = returned + 1
                        end
                    end
                end
            end
            release_lock_if_done(o.holder, r.code)
        end
    end
end

finish()
local reply = { returned, buried, timed_out, cancelled, next_cursor }
for _, consumer in ipairs(done) do reply[#reply + 1] = consumer end
return reply
