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

-- The settings' limits, from `meta`'s `limits` field (JSON), or nil when none. Read only: a text is decoded
-- once and kept in the library for the calls after (its decode cost a consume up to ~20,000 instructions);
-- the texts kept are forgotten together past a few.
O.DECODED_LIMITS, O.DECODED_LIMITS_COUNT = {}, 0
function O.decode_limits(text)
    if not text then return nil end
    local decoded = O.DECODED_LIMITS[text]
    if decoded then return decoded end
    local l = cjson.decode(text)
    local function rate(a)
        if not a then return nil end
        return { permits = a[1], per = a[2], burst = a[3], capacity = a[3] * a[2] }
    end
    decoded = { pc = l.pc or 0, qc = l.qc or 0, ov = l.ov or {}, qr = rate(l.qr), pr = rate(l.pr),
        counting = (l.pc or 0) > 0 or (l.qc or 0) > 0 or next(l.ov or {}) ~= nil }
    if O.DECODED_LIMITS_COUNT >= 64 then O.DECODED_LIMITS, O.DECODED_LIMITS_COUNT = {}, 0 end
    O.DECODED_LIMITS[text] = decoded
    O.DECODED_LIMITS_COUNT = O.DECODED_LIMITS_COUNT + 1
    return decoded
end

function O.limits() return O.meta().limits end

-- The queue's count in `inflight` ('', kept while counting, also at 0), padded with spaces (Lua's tonumber
-- skips them) past 64 bytes, Redis's hash-max-listpack-value: that makes `inflight` a hash table rather
-- than a listpack, in which each of the ~75 fields a consume reads or writes was a linear search.
function O.queue_count_text(n) return O.int(n) .. string.rep(' ', 64) end
-- `buckets` likewise: its field '' (no code is empty) holds only spaces, written with every HSET of it.
function O.buckets_pad() return string.rep(' ', 65) end

-- The keys of caps and rate limits, each with the field of O.decode_limits that makes calls touch it.
O.LIMIT_KINDS = { inflight = 'counting', buckets = 'pr', throttled = 'pr' }

-- A bucket as written: a 0 byte, its units (8 bytes, signed) and the millisecond they were counted at (6),
-- read with one unpack rather than two decimal parses. A bucket written as the text "units:at" (before
-- 2026-12-02; it starts with a digit) is read as well, and written back in this form.
function O.bucket_value(units) return struct.pack('>Bi8I6', 0, units, O.NOW) end

-- Units in a bucket (nil: full) at now, refilled, at most full. (Arithmetic only: every C call, as
-- math.max's, costs a consume about 150 instructions per partition.)
function O.bucket_units(rate, text)
    local capacity = rate.capacity
    if not text then return capacity end
    local units, at
    if string.byte(text, 1) == 0 then
        units, at = struct.unpack('>i8I6', text, 2)
    else
        local colon = string.find(text, ':', 1, true)
        units, at = tonumber(string.sub(text, 1, colon - 1)), tonumber(string.sub(text, colon + 1))
    end
    local elapsed = O.NOW - at
    if elapsed <= 0 then return units end
    units = units + elapsed * rate.permits
    if units >= capacity then return capacity end
    return units
end

function O.next_token_at(rate, units)
    local missing = rate.per - units
    if missing <= 0 then return O.NOW end
    return O.NOW + math.floor((missing + rate.permits - 1) / rate.permits)
end

-- The call's gate: what it learnt of `inflight` and `buckets` (each partition's count and units read once,
-- written once at the call's end by O.save_limits, from finish) and the checks on them, as functions over
-- locals: the take runs them for every task, and a call of a local function with no table lookups costs a
-- fraction of a call through `O`. nil until the call first needs it.
--   flight(code), units(code): a partition's tasks in flight ('': the queue's) and bucket units now
--   read(list, step): reads those of the codes (every step-th entry of a ZRANGE reply) with one HMGET per hash
--   holds(code): whether the partition can give no task now: at its cap, or out of tokens (then it goes
--     into `throttled` until its next token, and that time is a timer)
--   allowance(code, want): how many of want tasks an ordered partition may give now (its tokens), 0 when held
--   took(code, n, look): n tasks of it were taken; with look, whether it is held now (as holds)
--   left(codes, n): a task of each partition named (codes[1..n]) left its consumer (a partition named as
--     often as tasks of it left); a partition or a queue that was at its cap may deliver again: looked at at the call's end
--     (that also wakes a waiting consumer); below its cap nothing is looked at
-- A regular partition in `ready` always has a free slot and a token (refresh puts it there only then, and
-- only a take lowers either, which looks at it again), so the take checks it only after taking.

-- The call's gate state, set anew by O.gate at the call's first need; the functions of the gate below
-- are built once, with the library, over these locals (built per call, their closures cost a consume
-- about a thousand instructions a task).
local counting, pc, ov, qc, rate, per, capacity -- the limits
local ORDERED, byte, floor, bucket_value, units_of, K_INFLIGHT, K_BUCKETS -- (int: keys.lua's)
local flights, bucket_units -- per code: the count, the units
local flight_order, units_order -- codes whose value changed (or a full bucket to drop), in order
local numbers, units_of_text -- a count by its text; a bucket's units by its text (those served in one call are alike)
-- The lists of arguments of the gate's commands, kept with the library and filled anew by each command with
-- a count of its own (what lies past it is stale): a list built per call grows through a rehash at every
-- doubling.
local reading, sets, dels = {}, {}, {}
local function note_bucket(code, text)
    local u
    if text then
        u = units_of_text[text]
        if not u then
            u = units_of(rate, text)
            units_of_text[text] = u
        end
    else
        u = capacity
    end
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
-- the codes (every step-th entry of list) not in known, into reading; how many (while counting, usually
-- none: an ack's read has read the take's front)
local function collect_unknown(list, step, known)
    local n = 0
    for i = 1, #list, step do
        local code = list[i]
        if known[code] == nil then
            n = n + 1
            reading[n] = code
        end
    end
    return n
end
-- codes: not known yet (counts as read are mostly alike, 1 while caps do not bind: each text is parsed once)
local function read_counts(codes, n)
    local counts = O.call('HMGET', K_INFLIGHT, unpack(codes, 1, n))
    for i = 1, n do -- (numeric loops here: ipairs costs a C call per entry)
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
    if counting then
        local n = collect_unknown(list, step, flights)
        if n > 0 then read_counts(reading, n) end
    end
    if rate then
        local n = collect_unknown(list, step, bucket_units)
        if n > 0 then
            local values = O.call('HMGET', K_BUCKETS, unpack(reading, 1, n))
            for i = 1, n do note_bucket(reading[i], values[i] or nil) end
        end
    end
end
-- the rule, given the partition's count and units
-- a partition's cap: its override, else the partition cap; 0 for none (an ordered one's cap is its lock)
local function cap_of(code)
    if byte(code, 1) == ORDERED then return 0 end
    return ov[code] or pc
end
-- a partition out of tokens (u units) goes into `throttled` until its next token, a timer
local function throttle(code, u)
    local at = O.next_token_at(rate, u)
    O.call('ZADD', O.K_THROTTLED, int(at), code)
    O.note_timer(at)
end
local function over(code, count, u)
    if counting then
        local cap = cap_of(code)
        if cap > 0 and count >= cap then return true end
    end
    if rate and u < per then
        throttle(code, u)
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
local function left(codes, n_codes)
    if not counting then return end
    -- read with them: the queue's count, and the partitions a take after the acks looks at first (each
    -- code named is in flights as false until read, so a code named twice is read once; the front's codes
    -- are unlike each other)
    local n = 0
    if flights[''] == nil then
        reading[1], n = '', 1
    end
    for i = 1, n_codes do
        local code = codes[i]
        if flights[code] == nil then
            flights[code] = false
            n = n + 1
            reading[n] = code
        end
    end
    local front = O.take_front
    if front then
        for i = 1, #front do
            local code = front[i]
            if flights[code] == nil then
                n = n + 1
                reading[n] = code
            end
        end
    end
    if n > 0 then read_counts(reading, n) end
    local order = #flight_order
    for i = 1, n_codes do
        local code = codes[i]
        local before = flights[code]
        flights[code] = before - 1
        flight_order[order + i] = code
        -- (cap_of's check of an ordered code only when at the cap: a C call per code costs)
        local cap = ov[code] or pc
        if cap > 0 and before >= cap and cap_of(code) > 0 then O.touch(code) end
    end
    local before = flights['']
    flights[''] = before - n_codes
    flight_order[#flight_order + 1] = ''
    if qc > 0 and before >= qc and codes[1] then O.touch(codes[1]) end
end
-- one HDEL (first: a listpack is shorter for the HSET) and one HSET per hash; a partition's count of 0
-- and a full bucket are dropped. A code named again in order is written once: its value is taken out of
-- values once written (the gate ends here). Most values are alike (a count of 1, a bucket served in this
-- call), so each is formatted once.
local function save()
    local function write(key, order, values, buckets)
        local n_sets, n_dels = 0, 0
        local formatted = {}
        for i = 1, #order do
            local code = order[i]
            local value = values[code]
            if value ~= nil then
                values[code] = nil
                if buckets and value >= capacity or not buckets and value <= 0 and code ~= '' then
                    n_dels = n_dels + 1
                    dels[n_dels] = code
                else
                    local text = formatted[value]
                    if code == '' and not buckets then
                        text = O.queue_count_text(value)
                    elseif not text then
                        if buckets then text = bucket_value(value) else text = int(value) end
                        formatted[value] = text
                    end
                    sets[n_sets + 1], sets[n_sets + 2] = code, text
                    n_sets = n_sets + 2
                end
            end
        end
        if n_dels > 0 then O.call('HDEL', key, unpack(dels, 1, n_dels)) end
        if n_sets > 0 then
            if buckets then
                sets[n_sets + 1], sets[n_sets + 2] = '', O.buckets_pad()
                n_sets = n_sets + 2
            end
            O.call('HSET', key, unpack(sets, 1, n_sets))
        end
    end
    if #flight_order > 0 then write(K_INFLIGHT, flight_order, flights, false) end
    if #units_order > 0 then write(K_BUCKETS, units_order, bucket_units, true) end
end
local GATE = { cap_of = cap_of, flight = flight, units = units, throttle = throttle, read = read, holds = holds,
    allowance = allowance, took = took, left = left, save = save }
function O.gate()
    if O.limit_gate then return O.limit_gate end
    local l = O.limits()
    counting, pc, ov, qc, rate = l.counting, l.pc, l.ov, l.qc, l.pr
    per, capacity = rate and rate.per, rate and rate.capacity
    ORDERED, byte, floor, bucket_value, units_of = O.ORDERED_MARK, string.byte, math.floor, O.bucket_value,
        O.bucket_units
    K_INFLIGHT, K_BUCKETS = O.K_INFLIGHT, O.K_BUCKETS
    flights, bucket_units, flight_order, units_order, numbers, units_of_text = {}, {}, {}, {}, {}, {}
    GATE.flights, GATE.flight_order, GATE.bucket_units, GATE.units_order = flights, flight_order, bucket_units,
        units_order
    O.limit_gate = GATE
    return GATE
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
    O.gate().left({ code }, 1)
end

-- How many tasks this consume may take: max, cut to the queue's free slots and tokens. When the queue's
-- tokens cut it to nothing, their next one is a timer.
function O.room(max)
    local l = O.limits()
    local room = max
    if l.qc > 0 then room = math.min(room, l.qc - O.gate().flight('')) end
    if l.qr then
        local units = O.bucket_units(l.qr, O.meta().queue_bucket)
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
        local bucket = O.bucket_value(O.queue_units - n * l.qr.per)
        O.call('HSET', O.K_META, 'queueBucket', bucket)
        O.meta().queue_bucket = bucket
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
    if not (old and new and same_rate(old.qr, new.qr)) then
        O.call('HDEL', O.K_META, 'queueBucket')
        O.meta().queue_bucket = nil
    end
    for _, code in ipairs(O.call('ZRANGE', O.K_READY, '0', '-1')) do O.touch(code) end
    local turns = O.call('HGETALL', O.K_TURNS) -- (HKEYS is not among the commands Ordo's ACL user may run)
    for i = 1, #turns, 2 do O.touch(turns[i]) end
end
