-- Concurrency caps and rate limits (docs/semantics.md, "Caps and rate limits"). Part of the library after
-- finishing.lua. All of it runs only while the queue has a cap or a limit (`limits` in `meta`): without
-- one no call reads or writes a key of this file.
--
-- `inflight` (hash): per partition code, its gate state (O.gate_field): its tasks in flight while a cap is
-- set and its bucket, when not full, while a partition rate limit is; one field, read and written once a
-- call. The field '' (no code is empty) holds the queue's count. `throttled` (zset): partitions out of tokens, by when their next token comes; such a
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
    decoded.gated = decoded.counting or decoded.pr ~= nil -- (`inflight` is kept)
    if O.DECODED_LIMITS_COUNT >= 64 then O.DECODED_LIMITS, O.DECODED_LIMITS_COUNT = {}, 0 end
    O.DECODED_LIMITS[text] = decoded
    O.DECODED_LIMITS_COUNT = O.DECODED_LIMITS_COUNT + 1
    return decoded
end

function O.limits() return O.meta().limits end

-- `inflight` is a hash table rather than a listpack: in a listpack each of the ~40 fields a consume reads or
-- writes was a linear search. Its field '' (no code is empty) makes it one, being past 64 bytes, Redis's
-- hash-max-listpack-value: while a cap is set it holds the queue's count, padded with spaces (Lua's
-- tonumber skips them), kept also at 0; with rate limits only, 65 spaces, written with every HSET.
O.QUEUE_COUNT_PAD = '                                                                ' -- 64 spaces
O.INFLIGHT_PAD = '                                                                 ' -- 65 spaces
function O.queue_count_text(n) return O.int(n) .. O.QUEUE_COUNT_PAD end

-- The keys of caps and rate limits, each with the field of O.decode_limits that makes calls touch it.
-- `buckets` held the partitions' buckets before 2026-12-02 (now in `inflight`): read by nothing, deleted
-- when the limits change.
O.LIMIT_KINDS = { inflight = 'gated', buckets = 'never', throttled = 'pr' }

-- A bucket as written for the queue (`meta`'s queueBucket): a 0 byte, its units (8 bytes, signed) and the
-- millisecond they were counted at (6), read with one unpack rather than two decimal parses. A bucket
-- written as the text "units:at" (before 2026-12-02; it starts with a digit) is read as well.
function O.bucket_value(units) return struct.pack('>Bi8I6', 0, units, O.NOW) end

-- A partition's field in `inflight`, its gate state, in one of three forms, by what the limits keep:
--   caps only: its count in decimal (also with both, while its bucket is full);
--   rate limit only: its bucket, as O.bucket_value;
--   both: a 1 byte, its count (4 bytes, signed), then the bucket's units and millisecond as above.
-- A partition in none of them (no task in flight, its bucket full) has no field.

-- Units in a bucket (nil: full) at now, refilled, at most full. (Arithmetic only: every C call, as
-- math.max's, costs a consume about 150 instructions per partition.)
local function refilled(rate, units, at)
    local capacity = rate.capacity
    if not units then return capacity end
    local elapsed = O.NOW - at
    if elapsed <= 0 then return units end
    units = units + elapsed * rate.permits
    if units >= capacity then return capacity end
    return units
end
-- A partition's count (0 when its field has none) and units now (rate: the partition rate limit, or nil)
-- from its field (or nil). One unpack: each C or Lua call costs a consume ~150-300 instructions a partition.
local function gate_state(rate, text)
    if not text then return 0, rate and rate.capacity end
    local mark = string.byte(text, 1)
    local count, units, at
    if mark == 1 then
        count, units, at = struct.unpack('>i4i8I6', text, 2)
    elseif mark == 0 then
        count, units, at = 0, struct.unpack('>i8I6', text, 2)
    else
        count = tonumber(text) or 0 -- (the field '' with rate limits only: spaces, no count)
    end
    if not rate then return count, nil end
    return count, refilled(rate, units, at)
end
O.gate_state = gate_state

-- A partition's field for a count and units, by the limits' form (caps: counting; the partition rate limit:
-- rate), or nil when it has none.
function O.gate_field(counting, rate, count, units)
    local full = not rate or units >= rate.capacity
    if count <= 0 and full then return nil end
    if full then return O.int(count) end
    if not counting then return O.bucket_value(units) end
    return struct.pack('>Bi4i8I6', 1, count, units, O.NOW)
end

-- The queue's bucket's units now, from `meta`'s queueBucket (nil: full): a partition's bucket-only field,
-- or the "units:at" text of before 2026-12-02.
function O.bucket_units(rate, text)
    if text and string.byte(text, 1) ~= 0 then
        local colon = string.find(text, ':', 1, true)
        return refilled(rate, tonumber(string.sub(text, 1, colon - 1)), tonumber(string.sub(text, colon + 1)))
    end
    local _, units = gate_state(rate, text)
    return units
end

function O.next_token_at(rate, units)
    local missing = rate.per - units
    if missing <= 0 then return O.NOW end
    return O.NOW + math.floor((missing + rate.permits - 1) / rate.permits)
end

-- The call's gate: what it learnt of `inflight` (each partition's count and units read once, written once at
-- the call's end by O.save_limits, from finish) and the checks on them, as functions over locals: the take
-- runs them for every task, and a call of a local function with no table lookups costs a fraction of a call
-- through `O`. nil until the call first needs it.
--   flight(code): a partition's tasks in flight ('': the queue's)
--   read(list, step): reads those of the codes (every step-th entry of a ZRANGE reply) with one HMGET
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
local counting, pc, ov, qc, rate, per, capacity, gated -- the limits
local ORDERED, byte, floor, K_INFLIGHT -- (int: keys.lua's)
-- per code read: its count (while counting; false while its read is pending) and its units (with a rate
-- limit); known is the one of the two kept (counts, when both are), whose entry tells a code was read (a
-- table entry costs a new key: only what the limits keep is kept); the codes whose state changed (or whose
-- field is to go), in order
local flights, bucket_units, known, changed
-- a field's count and units by its text (the fields read in one call are mostly alike: each text decoded once)
local counts_of_text, units_of_text
-- The lists of arguments of the gate's commands, kept with the library and filled anew by each command with
-- a count of its own (what lies past it is stale): a list built per call grows through a rehash at every
-- doubling.
local reading, sets, dels = {}, {}, {}
-- reads the fields of codes[1..n] (codes not read yet, each named once); a field of no count and a full
-- bucket is no field: it goes at the call's end. (Inline, as the take's: a call per field costs.)
local function read_fields(codes, n)
    local fields = O.call('HMGET', K_INFLIGHT, unpack(codes, 1, n))
    if not rate then -- (caps only: the count alone)
        for i = 1, n do -- (numeric loops here: ipairs costs a C call per entry)
            local code, text, count = codes[i], fields[i], 0
            if text then
                count = counts_of_text[text]
                if not count then
                    count = gate_state(nil, text)
                    counts_of_text[text] = count
                end
                if count <= 0 and code ~= '' then changed[#changed + 1] = code end
            end
            flights[code] = count
        end
        return
    end
    for i = 1, n do
        local code, text = codes[i], fields[i]
        local count, u = 0, capacity
        if text then
            u = units_of_text[text]
            if u == nil then -- (each text decoded once a call)
                count, u = gate_state(rate, text)
                counts_of_text[text], units_of_text[text] = count, u
            else
                count = counts_of_text[text]
            end
            if count <= 0 and u >= capacity and code ~= '' then changed[#changed + 1] = code end
        end
        if counting then flights[code] = count end
        bucket_units[code] = u
    end
end
local one = {} -- (a list of one code, kept with the library)
local function fetch(code)
    one[1] = code
    read_fields(one, 1)
end
local function flight(code)
    local n = flights[code]
    if n == nil then
        fetch(code)
        n = flights[code]
    end
    return n
end
local function units(code)
    local u = bucket_units[code]
    if u == nil then
        fetch(code)
        u = bucket_units[code]
    end
    return u
end
local function read(list, step)
    if not gated then return end
    local n = 0
    for i = 1, #list, step do
        local code = list[i]
        if known[code] == nil then
            n = n + 1
            reading[n] = code
        end
    end
    if n > 0 then read_fields(reading, n) end
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
    if not gated then return false end
    if known[code] == nil then fetch(code) end
    local count, u
    if counting then
        count = flights[code] + n
        flights[code] = count
    end
    if rate and code ~= '' then -- ('': the queue's count; its bucket is `meta`'s queueBucket)
        u = bucket_units[code] - n * per
        bucket_units[code] = u
    end
    changed[#changed + 1] = code
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
    if n > 0 then read_fields(reading, n) end
    for i = 1, n_codes do
        local code = codes[i]
        local before = flights[code]
        flights[code] = before - 1
        changed[#changed + 1] = code
        -- (cap_of's check of an ordered code only when at the cap: a C call per code costs)
        local cap = ov[code] or pc
        if cap > 0 and before >= cap and cap_of(code) > 0 then O.touch(code) end
    end
    local before = flights['']
    flights[''] = before - n_codes
    changed[#changed + 1] = ''
    if qc > 0 and before >= qc and codes[1] then O.touch(codes[1]) end
end
-- one HDEL (first: a listpack is shorter for the HSET) and one HSET; a partition of no count and a full
-- bucket has no field. A code changed again is written once: it is taken out of known once written (the
-- gate ends here). Most fields are alike (a count of 1, a bucket served in this call): each is formed once
-- (O.gate_field), kept by count, or by units, or (both kept) by count then units.
local function save()
    local n_sets, n_dels = 0, 0
    local formed = {}
    for i = 1, #changed do
        local code = changed[i]
        local mark = known[code] -- (the count, or with a rate limit only the units)
        if mark ~= nil then
            known[code] = nil
            local count, u = mark, nil
            if rate then
                if counting then u = bucket_units[code] else count, u = 0, mark end
            end
            if code == '' then
                sets[n_sets + 1], sets[n_sets + 2] = '', O.queue_count_text(count)
                n_sets = n_sets + 2
            elseif count <= 0 and (not rate or u >= capacity) then
                n_dels = n_dels + 1
                dels[n_dels] = code
            else
                local cache, key = formed, count
                if rate then
                    key = u
                    if counting then
                        cache = formed[count]
                        if not cache then
                            cache = {}
                            formed[count] = cache
                        end
                    end
                end
                local text = cache[key]
                if not text then
                    text = O.gate_field(counting, rate, count, u)
                    cache[key] = text
                end
                sets[n_sets + 1], sets[n_sets + 2] = code, text
                n_sets = n_sets + 2
            end
        end
    end
    if n_dels > 0 then O.call('HDEL', K_INFLIGHT, unpack(dels, 1, n_dels)) end
    if n_sets > 0 then
        if not counting then
            sets[n_sets + 1], sets[n_sets + 2] = '', O.INFLIGHT_PAD
            n_sets = n_sets + 2
        end
        O.call('HSET', K_INFLIGHT, unpack(sets, 1, n_sets))
    end
end
local GATE = { cap_of = cap_of, flight = flight, throttle = throttle, read = read, holds = holds,
    allowance = allowance, took = took, left = left, save = save }
function O.gate()
    if O.limit_gate then return O.limit_gate end
    local l = O.limits()
    counting, pc, ov, qc, rate = l.counting, l.pc, l.ov, l.qc, l.pr
    per, capacity, gated = rate and rate.per, rate and rate.capacity, l.gated
    ORDERED, byte, floor = O.ORDERED_MARK, string.byte, math.floor
    K_INFLIGHT = O.K_INFLIGHT
    flights, bucket_units, changed = {}, {}, {}
    counts_of_text, units_of_text = {}, {}
    known = counting and flights or bucket_units
    GATE.flights, GATE.bucket_units, GATE.changed = flights, bucket_units, changed
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

-- The tasks in flight of every partition, counted from the consumers' holdings (a cap just set): per
-- code, and the queue's total.
local function count_flight()
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
    return counts, total
end

-- `inflight` written anew for new limits (nil: none): the counts recounted while a cap is set, and each
-- partition's bucket kept when kept_rate (the partition rate limit, the same before and after) is given.
local function rewrite_inflight(new, kept_rate)
    local kept = {}
    if kept_rate then
        local fields = O.call('HGETALL', O.K_INFLIGHT)
        for i = 1, #fields, 2 do
            if fields[i] ~= '' then
                local _, u = O.gate_state(kept_rate, fields[i + 1])
                if u < kept_rate.capacity then kept[fields[i]] = u end
            end
        end
    end
    O.call('DEL', O.K_INFLIGHT)
    if not (new and new.gated) then return end
    local counts, total = {}, 0
    if new.counting then counts, total = count_flight() end
    local args = {}
    local function put(code)
        local text = O.gate_field(new.counting, new.pr, counts[code] or 0, kept[code] or (new.pr and new.pr.capacity))
        if text then
            args[#args + 1] = code
            args[#args + 1] = text
        end
    end
    for code in pairs(counts) do put(code) end
    for code in pairs(kept) do
        if not counts[code] then put(code) end
    end
    args[#args + 1] = ''
    args[#args + 1] = new.counting and O.queue_count_text(total) or O.INFLIGHT_PAD
    O.call('HSET', O.K_INFLIGHT, unpack(args))
end

-- The caps or limits changed (configure): counts start anew, buckets too unless the partition rate limit
-- is the same, and every partition is looked at again. Costs one look per partition: configuring is rare.
function O.limits_changed(old, new)
    local function same_rate(a, b)
        if not a or not b then return a == b end
        return a.permits == b.permits and a.per == b.per and a.burst == b.burst
    end
    O.limit_gate = nil -- (nothing of the old limits is kept in the call)
    local same_partition_rate = old and new and same_rate(old.pr, new.pr)
    rewrite_inflight(new, same_partition_rate and old.pr or nil)
    O.call('DEL', O.K_BUCKETS) -- (the partitions' buckets before 2026-12-02)
    if not same_partition_rate then O.call('DEL', O.K_THROTTLED) end
    if not (old and new and same_rate(old.qr, new.qr)) then
        O.call('HDEL', O.K_META, 'queueBucket')
        O.meta().queue_bucket = nil
    end
    for _, code in ipairs(O.call('ZRANGE', O.K_READY, '0', '-1')) do O.touch(code) end
    local turns = O.call('HGETALL', O.K_TURNS) -- (HKEYS is not among the commands Ordo's ACL user may run)
    for i = 1, #turns, 2 do O.touch(turns[i]) end
end
