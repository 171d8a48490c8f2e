-- Concurrency caps and rate limits (docs/semantics.md, "Caps and rate limits"). Part of the library after
-- finishing.lua. All of it runs only while the queue has a cap or a limit (`limits` in `meta`): without
-- one no call reads or writes a key of this file.
--
-- `inflight` (hash): per partition code, its tasks in flight, kept while a cap is set; the field '' (no
-- code is empty) holds the queue's. `buckets` (hash): per partition code, its bucket when not full, as
-- "units:at". `throttled` (zset): partitions out of tokens, by when their next token comes; such a
-- partition is out of `ready` (in `turns`) until then, as a blocked one is. The queue's bucket is the
-- `queueBucket` field of `meta`. A bucket holds tokens * per units, gains `permits` units a millisecond
-- and gives `per` a delivery (io.ordo.domain.RateLimit): integers, exact in Lua as in Java.

-- The settings' limits, decoded once per call from `meta`'s `limits` field (JSON), or nil when none.
function O.decode_limits(text)
    if not text then return nil end
    local l = cjson.decode(text)
    local function rate(a)
        if not a then return nil end
        return { permits = a[1], per = a[2], burst = a[3], capacity = a[3] * a[2] }
    end
    return { pc = l.pc or 0, qc = l.qc or 0, ov = l.ov or {}, qr = rate(l.qr), pr = rate(l.pr),
        counting = (l.pc or 0) > 0 or (l.qc or 0) > 0 or next(l.ov or {}) ~= nil }
end

function O.limits() return O.meta().limits end

O.LIMIT_KINDS = { inflight = true, buckets = true, throttled = true }

-- A partition's cap: its override, else the partition cap; 0 for none (ordered: its lock).
function O.cap_of(code)
    if O.is_ordered(code) then return 0 end
    local l = O.limits()
    return l.ov[code] or l.pc
end

function O.in_flight(code) return tonumber(O.call('HGET', O.K_INFLIGHT, code)) or 0 end

-- A task of the partition went into (delta 1) or out of (-1) a consumer's hands.
function O.count_flight(code, delta)
    local l = O.limits()
    if not l or not l.counting then return end
    for _, field in ipairs({ code, '' }) do
        if O.call('HINCRBY', O.K_INFLIGHT, field, delta) <= 0 then O.call('HDEL', O.K_INFLIGHT, field) end
    end
    if delta < 0 then
        O.touch(code) -- below its cap again (and a queue at its cap may deliver): looked at at the call's end
    end
end

-- Units in a bucket "units:at" (nil: full) at now, refilled, at most full.
function O.bucket_units(rate, text)
    if not text then return rate.capacity end
    local colon = string.find(text, ':', 1, true)
    local units, at = tonumber(string.sub(text, 1, colon - 1)), tonumber(string.sub(text, colon + 1))
    local elapsed = math.max(0, O.NOW - at)
    local to_fill = math.floor((rate.capacity - units + rate.permits - 1) / rate.permits)
    if elapsed >= to_fill then return rate.capacity end
    return units + elapsed * rate.permits
end

function O.next_token_at(rate, units)
    local missing = rate.per - units
    if missing <= 0 then return O.NOW end
    return O.NOW + math.floor((missing + rate.permits - 1) / rate.permits)
end

function O.partition_units(code)
    return O.bucket_units(O.limits().pr, O.call('HGET', O.K_BUCKETS, code))
end

-- Whether a partition may not be served now whatever its head: at its cap, or out of tokens (then it
-- goes into `throttled` until its next token, and that time is a timer).
function O.held_back(code)
    local l = O.limits()
    if l.counting then
        local cap = O.cap_of(code)
        if cap > 0 and O.in_flight(code) >= cap then return true end
    end
    if l.pr then
        local text = O.call('HGET', O.K_BUCKETS, code)
        if text then
            local units = O.bucket_units(l.pr, text)
            if units >= l.pr.capacity then
                O.call('HDEL', O.K_BUCKETS, code)
            elseif units < l.pr.per then
                local at = O.next_token_at(l.pr, units)
                O.call('ZADD', O.K_THROTTLED, O.int(at), code)
                O.note_timer(at)
                return true
            end
        end
        O.call('ZREM', O.K_THROTTLED, code)
    end
    return false
end

-- How many tasks this consume may take: max, cut to the queue's free slots and tokens. When the queue's
-- tokens cut it to nothing, their next one is a timer.
function O.room(max)
    local l = O.limits()
    local room = max
    if l.qc > 0 then room = math.min(room, l.qc - (tonumber(O.call('HGET', O.K_INFLIGHT, '')) or 0)) end
    if l.qr then
        local units = O.bucket_units(l.qr, O.call('HGET', O.K_META, 'queueBucket'))
        O.queue_units = units
        local tokens = math.floor(units / l.qr.per)
        if tokens < 1 and room > 0 then O.note_timer(O.next_token_at(l.qr, units)) end
        room = math.min(room, tokens)
    end
    return math.max(room, 0)
end

-- consume's rule with caps or limits: one partition at a time from the front of `ready`, each served one
-- looked at again at once (O.refresh), as it may be at its cap or out of tokens now. The plain take's
-- shortcuts are not taken: this take reads each head from its partition.
-- Returns as O.take does: taken, whether `ready` still holds a partition (false also when the queue's
-- slots or tokens ran out: a consumer woken now would find nothing).
function O.take_limited(consumer, max, reply)
    local l = O.limits()
    local room = O.room(max)
    local taken, ids, leases = 0, {}, {}
    local regular_lease = O.regular_lease()
    local now_text = O.int(O.NOW)
    local ready_left = nil
    while taken < room do
        local front = redis.call('ZRANGE', O.K_READY, '0', '0')
        if #front == 0 then
            ready_left = false
            break
        end
        local code = front[1]
        local turn = O.next_counter('turn')
        local before = taken
        local function took(mb, lease, ready)
            taken = taken + 1
            O.readyat_remove(ready)
            local id = O.member_id(mb)
            ids[taken] = id
            leases[2 * taken - 1] = id
            leases[2 * taken] = lease
        end
        O.call('ZREM', O.K_READY, code)
        local remains
        if O.is_ordered(code) then
            local run = room - taken
            if l.pr then run = math.min(run, math.floor(O.partition_units(code) / l.pr.per)) end
            local members = {}
            local lease_head = O.ordered_lease(code, '')
            while taken - before < run do
                local mb, r, from_run = O.part_head(code, true)
                if not mb or r.ready > O.NOW then break end
                O.part_pop(code, mb, from_run)
                took(mb, lease_head .. mb, r.ready)
                members[#members + 1] = '0'
                members[#members + 1] = mb
            end
            if #members > 0 then O.call('ZADD', O.flight_key(code), unpack(members)) end
            O.call('HSET', O.K_LOCKS, code, consumer)
            O.call('HSET', O.K_LOCK_SINCE, code, now_text)
            remains = O.part_head(code) or O.parked(code) > 0
            if not remains then O.drop_partition(code) end
        else
            local mb, _, from_run = O.part_head(code)
            O.part_pop(code, mb, from_run)
            took(mb, regular_lease, struct.unpack('>I7', mb) % O.PRIORITY_SPAN)
            remains = O.part_head(code) or O.parked(code) > 0
        end
        if l.counting and taken > before then O.count_flight(code, taken - before) end
        if l.pr then
            local units = O.partition_units(code) - (taken - before) * l.pr.per
            O.call('HSET', O.K_BUCKETS, code, O.int(units) .. ':' .. now_text)
        end
        if remains then
            O.call('HSET', O.K_TURNS, code, O.int(turn))
            O.refresh(code)
        end
    end
    if l.qr and taken > 0 then
        O.call('HSET', O.K_META, 'queueBucket', O.int(O.queue_units - taken * l.qr.per) .. ':' .. now_text)
    end
    if taken >= room and room < max then ready_left = false end -- out of slots or tokens: no one to wake
    if taken > 0 then O.hand_over(consumer, ids, leases, taken, reply) end
    return taken, ready_left
end

-- The tasks in flight of every partition, counted from the consumers' holdings (a cap just set).
function O.recount_flight()
    O.call('DEL', O.K_INFLIGHT)
    local counts, total = {}, 0
    for _, consumer in ipairs(O.call('ZRANGE', O.K_CONSUMERS, '0', '-1')) do
        local held = O.call('HGETALL', O.holding_key(consumer))
        for i = 1, #held, 2 do
            local lease = held[i + 1]
            local code
            if string.byte(lease, 1) == O.ORDERED_LEASE then
                code = O.lease_place(lease)
            else
                code = O.load(held[i]).code
            end
            counts[code] = (counts[code] or 0) + 1
            total = total + 1
        end
    end
    local args = {}
    for code, n in pairs(counts) do
        args[#args + 1] = code
        args[#args + 1] = O.int(n)
    end
    if total > 0 then
        args[#args + 1] = ''
        args[#args + 1] = O.int(total)
        O.call('HSET', O.K_INFLIGHT, unpack(args))
    end
end

-- The caps or limits changed (configure): counts and buckets start anew and every partition is looked at
-- again. Costs one look per partition: configuring is rare.
function O.limits_changed(old, new)
    local function same_rate(a, b)
        if not a or not b then return a == b end
        return a.permits == b.permits and a.per == b.per and a.burst == b.burst
    end
    if new and new.counting then O.recount_flight() else O.call('DEL', O.K_INFLIGHT) end
    if not (old and new and same_rate(old.pr, new.pr)) then
        O.call('DEL', O.K_BUCKETS)
        O.call('DEL', O.K_THROTTLED)
    end
    if not (old and new and same_rate(old.qr, new.qr)) then O.call('HDEL', O.K_META, 'queueBucket') end
    for _, code in ipairs(O.call('ZRANGE', O.K_READY, '0', '-1')) do O.touch(code) end
    local turns = O.call('HGETALL', O.K_TURNS) -- (HKEYS is not among the commands Ordo's ACL user may run)
    for i = 1, #turns, 2 do O.touch(turns[i]) end
end
