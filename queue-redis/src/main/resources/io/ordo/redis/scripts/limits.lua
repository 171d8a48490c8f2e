-- Concurrency caps and rate limits (docs/semantics.md, "Caps and rate limits"). Part of the library after
-- finishing.lua. All of it runs only while the queue has a cap or a limit (`limits` in `meta`): without
-- one no call reads or writes a key of this file.
--
-- `inflight` (hash): per partition code, its tasks in flight, kept while a cap is set; the field '' (no
-- code is empty) holds the queue's. `buckets` (hash): per partition code, its bucket when not full
-- (O.bucket_value). `throttled` (zset): partitions out of tokens, by when their next token comes; such a
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

-- The queue's count in `inflight` ('', kept while counting, also at 0), padded with spaces (Lua's tonumber
-- skips them) past 64 bytes, Redis's hash-max-listpack-value: that makes `inflight` a hash table rather
-- than a listpack, in which each of the ~75 fields a consume reads or writes was a linear search.
function O.queue_count_text(n) return O.int(n) .. string.rep(' ', 64) end
-- `buckets` likewise: its field '' (no code is empty) holds only spaces, written with every HSET of it.
function O.buckets_pad() return string.rep(' ', 65) end

O.LIMIT_KINDS = { inflight = true, buckets = true, throttled = true }

-- A bucket as written: a 0 byte, its units (8 bytes, signed) and the millisecond they were counted at (6),
-- read with one unpack rather than two decimal parses. A bucket written as the text "units:at" (before
-- 2026-12-02; it starts with a digit) is read as well, and written back in this form.
function O.bucket_value(units) return struct.pack('>Bi8I6', 0, units, O.NOW) end

-- Units in a bucket (nil: full) at now, refilled, at most full.
function O.bucket_units(rate, text)
    if not text then return rate.capacity end
    local units, at
    if string.byte(text, 1) == 0 then
        units, at = struct.unpack('>i8I6', text, 2)
    else
        local colon = string.find(text, ':', 1, true)
        units, at = tonumber(string.sub(text, 1, colon - 1)), tonumber(string.sub(text, colon + 1))
    end
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

-- The call's gate: what it learnt of `inflight` and `buckets` (each partition's count and units read once,
-- written once at the call's end by O.save_limits, from finish) and the checks on them, as closures over
-- locals: the take runs them for every task, and a closure call with no table lookups costs a fraction of
-- a call through `O`. nil until the call first needs it.
--   flight(code), units(code): a partition's tasks in flight ('': the queue's) and bucket units now
--   read(list, step): reads those of the codes (every step-th entry of a ZRANGE reply) with one HMGET per hash
--   holds(code): whether the partition can give no task now: at its cap, or out of tokens (then it goes
--     into `throttled` until its next token, and that time is a timer)
--   allowance(code, want): how many of want tasks an ordered partition may give now (its tokens), 0 when held
--   took(code, n, look): n tasks of it were taken; with look, whether it is held now (as holds)
--   left(counts, codes): counts[code] tasks of each partition left their consumers; a partition or a queue
--     that was at its cap may deliver again: looked at at the call's end (that also wakes a waiting
--     consumer); below its cap nothing is looked at
-- A regular partition in `ready` always has a free slot and a token (refresh puts it there only then, and
-- only a take lowers either, which looks at it again), so the take checks it only after taking.
function O.gate()
    local gate = O.limit_gate
    if gate then return gate end
    local l = O.limits()
    local counting, pc, ov, qc = l.counting, l.pc, l.ov, l.qc
    local rate = l.pr
    local per, capacity = rate and rate.per, rate and rate.capacity
    local ORDERED = O.ORDERED_MARK
    local byte, floor, int, bucket_value = string.byte, math.floor, O.int, O.bucket_value
    local K_INFLIGHT, K_BUCKETS = O.K_INFLIGHT, O.K_BUCKETS
    local flights, bucket_units = {}, {}
    local flight_order, units_order = {}, {} -- codes whose value changed (or a full bucket to drop), in order
    local function note_bucket(code, text)
        local u = O.bucket_units(rate, text)
        bucket_units[code] = u
        if text and u >= capacity then units_order[#units_order + 1] = code end -- a full bucket is no bucket
        return u
    end
    local function flight(code)
        local n = flights[code]
        if n == nil then
            n = tonumber(O.call('HGET', K_INFLIGHT, code)) or 0
            flights[code] = n
        end
        return n
    end
    local function units(code)
        local u = bucket_units[code]
        if u == nil then u = note_bucket(code, O.call('HGET', K_BUCKETS, code)) end
        return u
    end
    -- the codes (every step-th entry of list) not in known
    local function unknown_of(list, step, known)
        local unknown = {}
        for i = 1, #list, step do
            if known[list[i]] == nil then unknown[#unknown + 1] = list[i] end
        end
        return unknown
    end
    -- counts as read and as written: most are alike (1 while caps do not bind), so each text is parsed and
    -- each number formatted once per call
    local numbers, texts = {}, {}
    -- codes: not known yet
    local function read_counts(codes)
        if #codes == 0 then return end
        local counts = O.call('HMGET', K_INFLIGHT, unpack(codes))
        for i = 1, #codes do -- (numeric loops here: ipairs costs a C call per entry)
            local code, text, n = codes[i], counts[i], 0
            if text then
                n = numbers[text]
                if not n then
                    n = tonumber(text)
                    numbers[text] = n
                end
            end
            flights[code] = n
        end
    end
    local function read(list, step)
        if counting then read_counts(unknown_of(list, step, flights)) end
        if rate then
            local codes = unknown_of(list, step, bucket_units)
            local values = #codes > 0 and O.call('HMGET', K_BUCKETS, unpack(codes))
            for i = 1, #codes do note_bucket(codes[i], values[i] or nil) end
        end
    end
    -- the rule, given the partition's count and units
    -- a partition's cap: its override, else the partition cap; 0 for none (an ordered one's cap is its lock)
    local function cap_of(code)
        if byte(code, 1) == ORDERED then return 0 end
        return ov[code] or pc
    end
    local function over(code, count, u)
        if counting then
            local cap = cap_of(code)
            if cap > 0 and count >= cap then return true end
        end
        if rate and u < per then
            local at = O.next_token_at(rate, u)
            O.call('ZADD', O.K_THROTTLED, int(at), code)
            O.note_timer(at)
            return true
        end
        return false
    end
    local function holds(code)
        return over(code, counting and flight(code), rate and units(code))
    end
    local function allowance(code, want)
        if holds(code) then return 0 end
        if rate then
            local tokens = floor(units(code) / per)
            if tokens < want then return tokens end
        end
        return want
    end
    local function took(code, n, look)
        local count, u
        if counting then
            count = (flights[code] or flight(code)) + n
            flights[code] = count
            flight_order[#flight_order + 1] = code
        end
        if rate and code ~= '' then -- ('': the queue's count; its bucket is `meta`'s queueBucket)
            u = (bucket_units[code] or units(code)) - n * per
            bucket_units[code] = u
            units_order[#units_order + 1] = code
        end
        return look and over(code, count, u)
    end
    local function left(counts, codes)
        if not counting then return end
        -- read with them: the queue's count, and the partitions a take after the acks looks at first
        local reading, n = {}, 0
        if flights[''] == nil then
            reading[1], n = '', 1
        end
        for _, list in ipairs({ codes, O.take_front or {} }) do
            for i = 1, #list do
                local code = list[i]
                if flights[code] == nil then
                    n = n + 1
                    reading[n] = code
                end
            end
        end
        read_counts(reading)
        local total = 0
        for i = 1, #codes do
            local code = codes[i]
            local n = counts[code]
            local before = flights[code]
            flights[code] = before - n
            flight_order[#flight_order + 1] = code
            total = total + n
            local cap = cap_of(code)
            if cap > 0 and before >= cap then O.touch(code) end
        end
        local before = flights['']
        flights[''] = before - total
        flight_order[#flight_order + 1] = ''
        if qc > 0 and before >= qc and codes[1] then O.touch(codes[1]) end
    end
    -- one HDEL (first: a listpack is shorter for the HSET) and one HSET per hash; a partition's count of 0
    -- and a full bucket are dropped
    local function save()
        local function write(key, order, values, buckets)
            local sets, dels, seen = {}, {}, {}
            for i = 1, #order do
                local code = order[i]
                if not seen[code] then
                    seen[code] = true
                    local value = values[code]
                    if code == '' and not buckets then
                        sets[#sets + 1] = code
                        sets[#sets + 1] = O.queue_count_text(value)
                    elseif (buckets and value >= capacity) or (not buckets and value <= 0) then
                        dels[#dels + 1] = code
                    else
                        sets[#sets + 1] = code
                        if buckets then
                            sets[#sets + 1] = bucket_value(value)
                        else
                            local text = texts[value]
                            if not text then
                                text = int(value)
                                texts[value] = text
                            end
                            sets[#sets + 1] = text
                        end
                    end
                end
            end
            if #dels > 0 then O.call('HDEL', key, unpack(dels)) end
            if #sets > 0 then
                if buckets then
                    sets[#sets + 1] = ''
                    sets[#sets + 1] = O.buckets_pad()
                end
                O.call('HSET', key, unpack(sets))
            end
        end
        if #flight_order > 0 then write(K_INFLIGHT, flight_order, flights, false) end
        if #units_order > 0 then write(K_BUCKETS, units_order, bucket_units, true) end
    end
    gate = { flights = flights, flight_order = flight_order, cap_of = cap_of, flight = flight, units = units, read = read, holds = holds, allowance = allowance, took = took,
        left = left, save = save }
    O.limit_gate = gate
    return gate
end

-- Whether a partition looked at again (refresh) may not be served now whatever its head (O.gate's holds);
-- one with tokens again leaves `throttled`.
function O.held_back(code)
    if O.gate().holds(code) then return true end
    if O.limits().pr then O.call('ZREM', O.K_THROTTLED, code) end
    return false
end

-- A task of the partition left its consumer (reject, fail, release, reclaim).
function O.flight_out(code)
    O.gate().left({ [code] = 1 }, { code })
end

-- How many tasks this consume may take: max, cut to the queue's free slots and tokens. When the queue's
-- tokens cut it to nothing, their next one is a timer.
function O.room(max)
    local l = O.limits()
    local room = max
    if l.qc > 0 then room = math.min(room, l.qc - O.gate().flight('')) end
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
    if l.counting then O.gate().took('', n) end
    if l.qr then
        O.call('HSET', O.K_META, 'queueBucket', O.bucket_value(O.queue_units - n * l.qr.per))
    end
end

-- Writes what the call changed in `inflight` and `buckets` (finish).
function O.save_limits()
    local gate = O.limit_gate
    if not gate then return end
    O.limit_gate = nil
    gate.save()
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
    args[#args + 1] = ''
    args[#args + 1] = O.queue_count_text(total)
    O.call('HSET', O.K_INFLIGHT, unpack(args))
end

-- The caps or limits changed (configure): counts and buckets start anew and every partition is looked at
-- again. Costs one look per partition: configuring is rare.
function O.limits_changed(old, new)
    local function same_rate(a, b)
        if not a or not b then return a == b end
        return a.permits == b.permits and a.per == b.per and a.burst == b.burst
    end
    O.limit_gate = nil -- (nothing of the old limits is kept in the call)
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
