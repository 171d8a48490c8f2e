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

-- What a call learnt of `inflight` and `buckets`, read once per partition and written once at the call's end
-- (O.save_limits, from finish): flights and units by code (flights[''] the queue's count), and the codes
-- whose value changed, in order. nil until the call first needs it.
function O.limit_cache()
    local cache = O.limit_state
    if not cache then
        cache = { flights = {}, units = {}, flight_order = {}, units_order = {} }
        O.limit_state = cache
    end
    return cache
end

-- A partition's tasks in flight ('' : the queue's).
function O.flight_of(code)
    local flights = O.limit_cache().flights
    local n = flights[code]
    if n == nil then
        n = tonumber(O.call('HGET', O.K_INFLIGHT, code)) or 0
        flights[code] = n
    end
    return n
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

-- The units a partition's bucket holds now, from its stored text; a stored bucket found full is dropped
-- at the call's end (a full bucket is no bucket).
function O.note_bucket(code, text)
    local cache = O.limit_cache()
    local units = O.bucket_units(O.limits().pr, text)
    cache.units[code] = units
    if text and units >= O.limits().pr.capacity then cache.units_order[#cache.units_order + 1] = code end
    return units
end

function O.units_of(code)
    local units = O.limit_cache().units[code]
    if units == nil then units = O.note_bucket(code, O.call('HGET', O.K_BUCKETS, code)) end
    return units
end

-- Reads with one HMGET the fields of key for the codes (every step-th entry of list: a ZRANGE reply,
-- WITHSCORES or not) not in known yet; keep(code, value or nil) stores each.
function O.read_unknown(key, list, step, known, keep)
    local unknown = {}
    for i = 1, #list, step do
        if known[list[i]] == nil then unknown[#unknown + 1] = list[i] end
    end
    if #unknown == 0 then return end
    local values = O.call('HMGET', key, unpack(unknown))
    for i, code in ipairs(unknown) do
        if known[code] == nil then keep(code, values[i] or nil) end
    end
end

function O.read_flights(list, step)
    local flights = O.limit_cache().flights
    O.read_unknown(O.K_INFLIGHT, list, step, flights, function(code, n) flights[code] = tonumber(n) or 0 end)
end

-- The in-flight counts and buckets of the partitions of a take's window, with one command per hash.
function O.read_limits(list, step)
    local l = O.limits()
    if l.counting then O.read_flights(list, step) end
    if l.pr then O.read_unknown(O.K_BUCKETS, list, step, O.limit_cache().units, O.note_bucket) end
end

-- n tasks of the partition ('': of the queue) went into (n > 0) or out of (n < 0) consumers' hands.
function O.add_flight(code, n)
    local cache = O.limit_cache()
    local before = O.flight_of(code)
    cache.flights[code] = before + n
    cache.flight_order[#cache.flight_order + 1] = code
    return before
end

-- n tasks of the partition left their consumers (ack, reject, fail, release, reclaim). A partition or a
-- queue that was at its cap may deliver again: the partition is looked at at the call's end (that also
-- wakes a waiting consumer); below its cap it is as it was, and nothing is looked at.
function O.flight_out(code, n)
    local l = O.limits()
    if not l or not l.counting then return end
    local before = O.add_flight(code, -n)
    local queue_before = O.add_flight('', -n)
    local cap = O.cap_of(code)
    if (cap > 0 and before >= cap) or (l.qc > 0 and queue_before >= l.qc) then O.touch(code) end
end

-- n tasks of the partition were taken: its count and its bucket (the queue's: O.took_from_queue).
function O.took(code, n)
    local l = O.limits()
    if l.counting then O.add_flight(code, n) end
    if l.pr then
        local cache = O.limit_cache()
        cache.units[code] = O.units_of(code) - n * l.pr.per
        cache.units_order[#cache.units_order + 1] = code
    end
end

-- How many of want tasks the partition may give now: its free slots and tokens.
function O.allowance(code, want)
    local l = O.limits()
    if l.counting then
        local cap = O.cap_of(code)
        if cap > 0 then want = math.min(want, cap - O.flight_of(code)) end
    end
    if l.pr then want = math.min(want, math.floor(O.units_of(code) / l.pr.per)) end
    return math.max(want, 0)
end

-- Whether the partition may not be served now whatever its head: at its cap, or out of tokens (then it
-- goes into `throttled` until its next token, and that time is a timer).
function O.over_limit(code)
    local l = O.limits()
    if l.counting then
        local cap = O.cap_of(code)
        if cap > 0 and O.flight_of(code) >= cap then return true end
    end
    if l.pr then
        local units = O.units_of(code)
        if units < l.pr.per then
            local at = O.next_token_at(l.pr, units)
            O.call('ZADD', O.K_THROTTLED, O.int(at), code)
            O.note_timer(at)
            return true
        end
    end
    return false
end

-- O.over_limit for a partition looked at again (refresh): one with tokens again leaves `throttled`.
function O.held_back(code)
    if O.over_limit(code) then return true end
    if O.limits().pr then O.call('ZREM', O.K_THROTTLED, code) end
    return false
end

-- How many tasks this consume may take: max, cut to the queue's free slots and tokens. When the queue's
-- tokens cut it to nothing, their next one is a timer.
function O.room(max)
    local l = O.limits()
    local room = max
    if l.qc > 0 then room = math.min(room, l.qc - O.flight_of('')) end
    if l.qr then
        local units = O.bucket_units(l.qr, O.call('HGET', O.K_META, 'queueBucket'))
        O.queue_units = units
        local tokens = math.floor(units / l.qr.per)
        if tokens < 1 and room > 0 then O.note_timer(O.next_token_at(l.qr, units)) end
        room = math.min(room, tokens)
    end
    return math.max(room, 0)
end

-- n tasks were taken from the queue (after O.room): its count and its bucket.
function O.took_from_queue(n)
    local l = O.limits()
    if n == 0 then return end
    if l.counting then O.add_flight('', n) end
    if l.qr then
        O.call('HSET', O.K_META, 'queueBucket', O.int(O.queue_units - n * l.qr.per) .. ':' .. O.int(O.NOW))
    end
end

-- Writes what the call changed in `inflight` and `buckets`: one HSET and one HDEL per hash.
function O.save_limits()
    local cache = O.limit_state
    if not cache then return end
    O.limit_state = nil
    local function save(key, order, values, text_of, gone)
        local sets, dels, seen = {}, {}, {}
        for _, code in ipairs(order) do
            if not seen[code] then
                seen[code] = true
                local value = values[code]
                if gone(value) then
                    dels[#dels + 1] = code
                else
                    sets[#sets + 1] = code
                    sets[#sets + 1] = text_of(value)
                end
            end
        end
        if #sets > 0 then O.call('HSET', key, unpack(sets)) end
        if #dels > 0 then O.call('HDEL', key, unpack(dels)) end
    end
    if #cache.flight_order > 0 then
        save(O.K_INFLIGHT, cache.flight_order, cache.flights, O.int, function(n) return n <= 0 end)
    end
    if #cache.units_order > 0 then
        local rate, now_text = O.limits().pr, ':' .. O.int(O.NOW)
        save(O.K_BUCKETS, cache.units_order, cache.units, function(units) return O.int(units) .. now_text end,
            function(units) return units >= rate.capacity end)
    end
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
            if O.lease_has_place(lease) then
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
    O.limit_state = nil -- (nothing of the old limits is kept in the call)
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
