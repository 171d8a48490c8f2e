-- Shared by every Ordo script: placed right after each script's shebang line when the scripts load
-- (see RedisScript). The rules implemented here are those of docs/semantics.md; the key layout and
-- the record format are explained in docs/redis-design.md.

-- Everything lives in one table: closures that capture a single table are made far faster at
-- each call than closures capturing dozens of locals.
local O = {}

-- The queue's fixed keys, in KeySchema order. Every script receives all of them.
O.K_META      = KEYS[1]   -- hash: settings, counters, paused flag
O.K_TASKS     = KEYS[2]   -- hash: task id -> packed record (waiting, in flight or dead)
O.K_READY     = KEYS[3]   -- zset: eligible partitions, score (1000 - head priority) * 2^42 + turn
O.K_DELAYED   = KEYS[4]   -- zset: waiting task ids not ready when they arrived, by readyAt
O.K_WAKE      = KEYS[5]   -- zset: ordered partitions whose head is not ready yet, by the head's readyAt
O.K_BLOCKED   = KEYS[6]   -- zset: blocked partitions, by blockedUntil
O.K_TURNS     = KEYS[7]   -- hash: partition code -> turn; a partition exists while it is here
O.K_SIZES     = KEYS[8]   -- hash: partition code -> number of waiting tasks
O.K_LOCKS     = KEYS[9]   -- hash: ordered partition code -> consumer holding it
O.K_LEASED    = KEYS[10]  -- zset: in-flight task ids, by leasedAt
O.K_CONSUMERS = KEYS[11]  -- zset: consumers, by expiresAt
O.K_DEAD      = KEYS[12]  -- zset: dead-letter ids, by the order they died
O.K_ACKED     = KEYS[13]  -- zset: acked ids inside the dedup window, by when they may be used again
O.K_READYAT   = KEYS[14]  -- zset: the distinct readyAt values of waiting tasks (oldest due task)
O.K_READYAT_N = KEYS[15]  -- hash: readyAt -> number of waiting tasks with it
O.K_SIGNAL    = KEYS[16]  -- list: one element while work may be waiting for a blocked consumer
O.K_HEARTBEATS = KEYS[17] -- hash: consumer -> when it last heartbeated or consumed (inspect)
O.K_LOCK_SINCE = KEYS[18] -- hash: ordered partition code -> when its holder locked it (inspect)

-- Per-partition and per-consumer keys: the prefix, a kind, and the code or name in hex, so no
-- user-chosen text can ever spell another key.
O.PREFIX = string.sub(O.K_META, 1, -5)

O.STATE_WAITING, O.STATE_IN_FLIGHT, O.STATE_DEAD = 0, 1, 2
O.FLAG_PRIORITY, O.FLAG_ATTEMPTS, O.FLAG_DUE, O.FLAG_READY, O.FLAG_ERROR = 4, 8, 16, 32, 64
O.PRIORITY_SPAN = 4398046511104 -- 2^42: times and turns stay below it, so scores stay exact
O.ORDERED_MARK = 33             -- '!'

-- O.NOW: the time of this call, set by start() at the top of each script.

-- redis.call that names the key in the error, so a foreign key of the wrong type is easy to find.
function O.call(...)
    local reply = redis.pcall(...)
    if type(reply) == 'table' and reply.err then
        error({ err = reply.err .. ' (key ' .. tostring(select(2, ...)) .. ')' })
    end
    return reply
end

function O.clock_now(override)
    if override ~= '' then
        return tonumber(override)
    end
    local time = redis.call('TIME')
    return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end

-- One string.format over all the bytes: a gsub calling a function per byte cost ~3 µs for a short name.
O.hex_cache = {}
function O.hex(text)
    local encoded = O.hex_cache[text]
    if not encoded then
        local n = #text
        if n <= 256 then
            encoded = string.format(string.rep('%02x', n), string.byte(text, 1, n))
        else -- long codes: in slices, to keep the argument count small
            local parts = {}
            for i = 1, n, 256 do
                local j = math.min(i + 255, n)
                parts[#parts + 1] = string.format(string.rep('%02x', j - i + 1), string.byte(text, i, j))
            end
            encoded = table.concat(parts)
        end
        O.hex_cache[text] = encoded
    end
    return encoded
end

function O.run_key(code) return O.PREFIX .. 'pr:' .. O.hex(code) end      -- list: in-order arrivals
function O.rest_key(code) return O.PREFIX .. 'pz:' .. O.hex(code) end     -- zset: all other waiting tasks
function O.flight_key(code) return O.PREFIX .. 'pf:' .. O.hex(code) end   -- zset: held tasks of an ordered partition
function O.consumer_key(name) return O.PREFIX .. 'c:' .. O.hex(name) end  -- zset: ids a consumer holds, by seq

function O.is_ordered(code) return string.byte(code, 1) == O.ORDERED_MARK end

function O.has(flags, flag) return bit.band(flags, flag) ~= 0 end

function O.int(n) return string.format('%.0f', n) end

-- Defaults mirror QueueSettings.DEFAULTS (a test keeps them equal).
function O.settings()
    local v = O.call('HMGET', O.K_META, 'maxAttempts', 'processingTimeoutMs', 'dedupWindowMs', 'heartbeatTtlMs',
        'maxPayloadBytes')
    return {
        max_attempts = tonumber(v[1]) or 5,
        processing_timeout = tonumber(v[2]) or 0,
        dedup_window = tonumber(v[3]) or 0,
        heartbeat_ttl = tonumber(v[4]) or 30000,
        max_payload = tonumber(v[5]) or 1048576,
    }
end

-- Counters (seq, turn, waiting, totals) are read once per call and written back by finish().
O.counters, O.counters_changed = {}, {}
function O.counter(field)
    local value = O.counters[field]
    if value == nil then
        value = tonumber(O.call('HGET', O.K_META, field)) or 0
        O.counters[field] = value
    end
    return value
end

function O.count(field, delta)
    local value = O.counter(field) + delta
    O.counters[field] = value
    O.counters_changed[#O.counters_changed + 1] = field
    return value
end

function O.next_counter(field) return O.count(field, 1) end

function O.save_counters()
    if #O.counters_changed == 0 then return end
    local args, seen = {}, {}
    for _, field in ipairs(O.counters_changed) do
        if not seen[field] then
            seen[field] = true
            args[#args + 1] = field
            args[#args + 1] = O.counters[field]
        end
    end
    O.call('HSET', O.K_META, unpack(args))
    O.counters_changed = {}
end

-- ---------------------------------------------------------------- the task record
-- flags(1) seq(6) publishedAt(6) [priority+1000(2)] [attempts(2)] [dueAt(6)] [readyAt(6)]
-- [lastError: len(2) bytes] [in flight: leasedAt(6) holder len(2) bytes | dead: deadAt(6)]
-- tail: code len(2) bytes, header count(1) headers, payload. The tail never changes after publish.

function O.tail_code(tail)
    local n = struct.unpack('>I2', tail)
    return string.sub(tail, 3, 2 + n)
end

function O.decode(s)
    local flags, seq, published, pos = struct.unpack('>BI6I6', s)
    local r = { state = flags % 4, seq = seq, published = published, priority = 0, attempts = 0 }
    if O.has(flags, O.FLAG_PRIORITY) then
        r.priority, pos = struct.unpack('>H', s, pos)
        r.priority = r.priority - 1000
    end
    if O.has(flags, O.FLAG_ATTEMPTS) then r.attempts, pos = struct.unpack('>H', s, pos) end
    r.due = published
    if O.has(flags, O.FLAG_DUE) then r.due, pos = struct.unpack('>I6', s, pos) end
    r.ready = r.due
    if O.has(flags, O.FLAG_READY) then r.ready, pos = struct.unpack('>I6', s, pos) end
    local n
    if O.has(flags, O.FLAG_ERROR) then
        n, pos = struct.unpack('>I2', s, pos)
        r.error = string.sub(s, pos, pos + n - 1)
        pos = pos + n
    end
    if r.state == O.STATE_IN_FLIGHT then
        r.at, n, pos = struct.unpack('>I6I2', s, pos)
        r.holder = string.sub(s, pos, pos + n - 1)
        pos = pos + n
    elseif r.state == O.STATE_DEAD then
        r.at, pos = struct.unpack('>I6', s, pos)
    end
    r.tail = string.sub(s, pos)
    r.code = O.tail_code(r.tail)
    return r
end

function O.encode(r)
    local flags = r.state
    local parts = { '' }
    if r.priority ~= 0 then
        flags = flags + O.FLAG_PRIORITY
        parts[#parts + 1] = struct.pack('>H', r.priority + 1000)
    end
    if r.attempts ~= 0 then
        flags = flags + O.FLAG_ATTEMPTS
        parts[#parts + 1] = struct.pack('>H', r.attempts)
    end
    if r.due ~= r.published then
        flags = flags + O.FLAG_DUE
        parts[#parts + 1] = struct.pack('>I6', r.due)
    end
    if r.ready ~= r.due then
        flags = flags + O.FLAG_READY
        parts[#parts + 1] = struct.pack('>I6', r.ready)
    end
    if r.error then
        flags = flags + O.FLAG_ERROR
        parts[#parts + 1] = struct.pack('>I2', #r.error) .. r.error
    end
    if r.state == O.STATE_IN_FLIGHT then
        parts[#parts + 1] = struct.pack('>I6I2', r.at, #r.holder) .. r.holder
    elseif r.state == O.STATE_DEAD then
        parts[#parts + 1] = struct.pack('>I6', r.at)
    end
    parts[1] = struct.pack('>BI6I6', flags, r.seq, r.published)
    parts[#parts + 1] = r.tail
    return table.concat(parts)
end

-- A script that writes many records (publish) sets O.unsaved to a table: they are then kept here and
-- written with one HSET by finish(); load() reads them from here meanwhile.
O.unsaved, O.unsaved_order = nil, {}

function O.load(id)
    local s = O.unsaved and O.unsaved[id] or O.call('HGET', O.K_TASKS, id)
    if not s then return nil end
    return O.decode(s)
end

function O.save(id, r)
    if O.unsaved then
        if not O.unsaved[id] then O.unsaved_order[#O.unsaved_order + 1] = id end
        O.unsaved[id] = O.encode(r)
    else
        O.call('HSET', O.K_TASKS, id, O.encode(r))
    end
end

function O.save_unsaved()
    if not O.unsaved or #O.unsaved_order == 0 then return end
    local args = {}
    for _, id in ipairs(O.unsaved_order) do
        args[#args + 1] = id
        args[#args + 1] = O.unsaved[id]
        if #args == 2000 then -- unpack has a limit
            O.call('HSET', O.K_TASKS, unpack(args))
            args = {}
        end
    end
    if #args > 0 then O.call('HSET', O.K_TASKS, unpack(args)) end
    O.unsaved, O.unsaved_order = {}, {}
end

-- ---------------------------------------------------------------- order inside a partition
-- A member is score(7) seq(6) id, score = (1000 - priority) * 2^42 + dueAt: its fixed-width prefix
-- sorts byte-wise exactly like the ordering key (priority desc, dueAt asc, seq asc).

function O.member(r, id)
    return struct.pack('>I7I6', (1000 - r.priority) * O.PRIORITY_SPAN + r.due, r.seq) .. id
end

function O.member_seq(m)
    local _, seq = struct.unpack('>I7I6', m)
    return seq
end

function O.member_id(m) return string.sub(m, 14) end

function O.member_priority(m)
    return 1000 - math.floor(struct.unpack('>I7', m) / O.PRIORITY_SPAN)
end

-- Compares the numeric prefixes (Lua's own string order follows the server's locale).
function O.member_before(a, b)
    local score_a, seq_a = struct.unpack('>I7I6', a)
    local score_b, seq_b = struct.unpack('>I7I6', b)
    if score_a ~= score_b then return score_a < score_b end
    return seq_a < seq_b
end

-- What this call learnt about partitions, so a batch touching one partition many times reads it once.
O.heads = {}      -- code -> {member, record, from_run}, or false when it has no waiting member
O.tails = {}      -- code -> last member of its list, or false when the list is empty
O.fronts = {}     -- code -> {first, second} members of its list (false: none; second nil: not known)
O.turns = {}      -- code -> turn
O.any_blocked = nil -- whether any block exists at all (nil: not looked yet)

function O.forget(code)
    O.heads[code] = nil
end

-- A partition's waiting tasks live in two places: a list taking every arrival that sorts after the
-- list's last member (the usual case: publish order), and a sorted set for the rest. The list costs a
-- few bytes per task; the head is the lower of the two heads.
-- Returns true when the member went behind a live list member, so the partition's head is unchanged.
function O.part_insert(code, m)
    local last = O.tails[code]
    if last == nil then last = O.call('LINDEX', O.run_key(code), -1) end
    if not last or O.member_before(last, m) then
        O.call('RPUSH', O.run_key(code), m)
        O.tails[code] = m
        O.fronts[code] = nil
        if last and O.counter('stale') == 0 then return true end
    elseif O.call('ZADD', O.rest_key(code), 0, m) == 1 then
        O.count('rest', 1) -- members in all sorted sets: while 0, no call looks at them
    end
    O.forget(code)
    return false
end

-- The record of a member if it still names a waiting task (a cancelled task leaves its list member
-- behind; it is dropped when it reaches the front). While the queue has no such member ('stale' is 0),
-- list members need no check.
function O.live(m)
    local r = O.load(O.member_id(m))
    if r and r.state == O.STATE_WAITING and r.seq == O.member_seq(m) then return r end
    return nil
end

-- The partition's lowest waiting member: member, its record (read only when asked for), whether it is
-- the list's front.
function O.part_head(code, with_record)
    local known = O.heads[code]
    if known == nil then
        known = O.find_head(code)
        O.heads[code] = known
    end
    if not known then return nil end
    if with_record and not known[2] then known[2] = O.load(O.member_id(known[1])) end
    return known[1], known[2], known[3]
end

function O.find_head(code)
    local run, rest = O.run_key(code), O.rest_key(code)
    local b = O.counter('rest') > 0 and O.call('ZRANGE', rest, 0, 0)[1]
    while true do
        -- the list's first two members: after taking the first, the next head is known without a call
        local front = O.fronts[code]
        if not front then
            local first_two = O.call('LRANGE', run, 0, 1)
            front = { first_two[1] or false, first_two[2] or false }
            O.fronts[code] = front
        end
        local a = front[1]
        if a and (not b or O.member_before(a, b)) then
            if O.counter('stale') == 0 then return { a, false, true } end
            local r = O.live(a)
            if r then return { a, r, true } end
            O.call('LPOP', run)
            O.fronts[code] = nil
            O.count('stale', -1)
            if O.tails[code] == a then O.tails[code] = false end
        elseif b then
            return { b, false, false } -- cancel removes sorted-set members at once: always live
        else
            return false
        end
    end
end

function O.part_pop(code, m, from_run)
    if from_run then
        O.call('LPOP', O.run_key(code))
        if O.tails[code] == m then O.tails[code] = false end
        local front = O.fronts[code]
        if front and front[1] == m and front[2] == false then
            O.fronts[code] = { false, false } -- the list is empty now
        elseif front and front[1] == m and front[2] then
            O.fronts[code] = { front[2] } -- the next member is the front; the one after it is not known
        else
            O.fronts[code] = nil
        end
    else
        O.call('ZREM', O.rest_key(code), m)
        O.count('rest', -1)
    end
    O.forget(code)
end

-- ---------------------------------------------------------------- partitions and eligibility

O.touched, O.touched_order = {}, {}
function O.touch(code)
    if not O.touched[code] then
        O.touched[code] = true
        O.touched_order[#O.touched_order + 1] = code
    end
end

function O.drop_partition(code)
    O.call('HDEL', O.K_SIZES, code)
    O.call('HDEL', O.K_TURNS, code)
    if O.counter('rest') > 0 then O.count('rest', -O.call('ZCARD', O.rest_key(code))) end
    -- with no waiting task left, whatever the list still holds is cancelled tasks' members
    if O.counter('stale') > 0 then O.count('stale', -O.call('LLEN', O.run_key(code))) end
    O.call('DEL', O.run_key(code), O.rest_key(code))
    O.heads[code], O.tails[code], O.turns[code], O.fronts[code] = false, false, false, nil
end

function O.turn_of(code)
    local turn = O.turns[code]
    if turn == nil then
        turn = tonumber(O.call('HGET', O.K_TURNS, code)) or false
        O.turns[code] = turn
    end
    return turn
end

function O.set_turn(code, turn)
    O.call('HSET', O.K_TURNS, code, turn)
    O.turns[code] = turn
end

function O.is_blocked(code)
    if O.any_blocked == nil then O.any_blocked = O.call('EXISTS', O.K_BLOCKED) == 1 end
    if not O.any_blocked then return false end
    local blocked_until = O.call('ZSCORE', O.K_BLOCKED, code)
    return blocked_until ~= false and tonumber(blocked_until) > O.NOW
end

-- Puts a partition in the index of eligible partitions, or takes it out, from its current state.
function O.refresh(code)
    local turn = O.turn_of(code)
    local ordered = O.is_ordered(code)
    local m, r
    if turn and not (ordered and O.call('HEXISTS', O.K_LOCKS, code) == 1) and not O.is_blocked(code) then
        m, r = O.part_head(code, ordered) -- a regular partition's members are all ready
    end
    local ready = m and (not ordered or r.ready <= O.NOW)
    if ready then
        O.call('ZADD', O.K_READY, (1000 - O.member_priority(m)) * O.PRIORITY_SPAN + turn, code)
    else
        O.call('ZREM', O.K_READY, code)
    end
    if ordered then
        if m and not ready then
            -- an ordered head waiting for its time; a new or moved time may end a blocked consumer's nap sooner
            if O.call('ZADD', O.K_WAKE, 'CH', r.ready, code) == 1 then O.new_due_time = true end
        else
            O.call('ZREM', O.K_WAKE, code)
        end
    end
end

-- Applies what time has made true since the last consume: delayed tasks that are due join their
-- partitions, ordered heads and blocks whose time has come are looked at again.
-- At most PROMOTE_LIMIT tasks per call, earliest first, so one call never stalls the server; the rest
-- follow in the next calls.
O.PROMOTE_LIMIT = 10000
function O.promote_due()
    local due = O.call('ZRANGEBYSCORE', O.K_DELAYED, '-inf', O.NOW, 'LIMIT', 0, O.PROMOTE_LIMIT)
    for _, id in ipairs(due) do
        local r = O.load(id)
        if not O.is_ordered(r.code) then O.part_insert(r.code, O.member(r, id)) end
        O.touch(r.code)
    end
    if #due > 0 then O.call('ZREMRANGEBYRANK', O.K_DELAYED, 0, #due - 1) end
    for _, code in ipairs(O.call('ZRANGEBYSCORE', O.K_WAKE, '-inf', O.NOW)) do O.touch(code) end
    local unblocked = O.call('ZRANGEBYSCORE', O.K_BLOCKED, '-inf', O.NOW)
    for _, code in ipairs(unblocked) do O.touch(code) end
    if #unblocked > 0 then O.call('ZREMRANGEBYRANK', O.K_BLOCKED, 0, #unblocked - 1) end
end

-- The readyAt counts are summed per value during a call and written once by finish(): the tasks a
-- publish or a consume moves mostly share one readyAt (one millisecond), so this is one HINCRBY, not
-- one per task.
O.readyat_delta, O.readyat_order = {}, {}
function O.readyat_change(t, delta)
    local sum = O.readyat_delta[t]
    if sum == nil then O.readyat_order[#O.readyat_order + 1] = t end
    O.readyat_delta[t] = (sum or 0) + delta
end

function O.readyat_add(t) O.readyat_change(t, 1) end

function O.readyat_remove(t) O.readyat_change(t, -1) end

function O.save_readyat()
    for _, t in ipairs(O.readyat_order) do
        local delta = O.readyat_delta[t]
        if delta ~= 0 then
            local n = O.call('HINCRBY', O.K_READYAT_N, t, delta)
            if n <= 0 then
                O.call('HDEL', O.K_READYAT_N, t)
                O.call('ZREM', O.K_READYAT, t)
            elseif n == delta then
                O.call('ZADD', O.K_READYAT, t, t) -- the value was new
            end
        end
    end
    O.readyat_delta, O.readyat_order = {}, {}
end

-- A task joins its partition (publish, return, redrive); an empty partition gets a new turn.
function O.put_waiting(id, r)
    r.state, r.at, r.holder = O.STATE_WAITING, nil, nil
    O.save(id, r)
    local code = r.code
    if O.call('HINCRBY', O.K_SIZES, code, 1) == 1 then
        O.set_turn(code, O.next_counter('turn'))
    end
    O.count('waiting', 1)
    O.readyat_add(r.ready)
    if r.ready > O.NOW then
        O.call('ZADD', O.K_DELAYED, r.ready, id)
        O.new_due_time = true
    end
    local head_unchanged = (r.ready <= O.NOW or O.is_ordered(code)) and O.part_insert(code, O.member(r, id))
    if not head_unchanged then O.touch(code) end
end

-- A waiting task leaves its partition (taken or cancelled); the caller has removed its member.
-- Returns whether the partition still exists.
function O.leave_waiting(r)
    O.count('waiting', -1)
    O.readyat_remove(r.ready)
    O.forget(r.code)
    O.touch(r.code)
    if O.call('HINCRBY', O.K_SIZES, r.code, -1) <= 0 then
        O.drop_partition(r.code)
        return false
    end
    return true
end

-- An in-flight task leaves the consumer's hands (its record is rewritten by the caller).
function O.leave_flight(id, r, m)
    O.call('ZREM', O.K_LEASED, id)
    O.call('ZREM', O.consumer_key(r.holder), id)
    if O.is_ordered(r.code) then O.call('ZREM', O.flight_key(r.code), m or O.member(r, id)) end
end

function O.release_lock_if_done(consumer, code)
    if O.is_ordered(code) and O.call('HGET', O.K_LOCKS, code) == consumer
            and O.call('ZCARD', O.flight_key(code)) == 0 then
        O.call('HDEL', O.K_LOCKS, code)
        O.call('HDEL', O.K_LOCK_SINCE, code)
        O.touch(code)
    end
end

function O.bury(id, r, reason)
    r.state, r.at, r.holder, r.error = O.STATE_DEAD, O.NOW, nil, reason
    O.save(id, r)
    O.call('ZADD', O.K_DEAD, O.next_counter('deadSeq'), id)
    O.count('deadLetteredTotal', 1)
end

-- Recomputes every partition touched by this call and wakes a blocked consumer if work is waiting.
-- quiet: the caller makes work available only through the partitions it touches (ack), so when it
-- touched none, `ready` is as the previous call left it, signal included, and the check is skipped.
function O.finish(quiet)
    O.save_unsaved()
    local touched_any = #O.touched_order > 0
    for _, code in ipairs(O.touched_order) do O.refresh(code) end
    O.touched, O.touched_order = {}, {}
    O.save_readyat()
    O.save_counters()
    -- A blocked consumer naps until the earliest due time it knew of; a new due time wakes one so it
    -- looks again (a retry delay shorter than its nap would otherwise be served late).
    local new_due_time = O.new_due_time
    O.new_due_time = false
    if quiet and not touched_any and not new_due_time then return end
    if (new_due_time or O.call('ZCARD', O.K_READY) > 0) and O.call('EXISTS', O.K_SIGNAL) == 0 then
        O.call('RPUSH', O.K_SIGNAL, 1)
    end
end

-- Binary-safe "a before b" for names, in Java's String order (UTF-16 units): a 4-byte UTF-8 sequence
-- (a surrogate pair in Java) sorts as if it stood between U+D7FF and U+E000.
function O.java_order_key(s)
    return (string.gsub(s, '[\240-\244][\128-\191][\128-\191][\128-\191]', function(c) return '\237\192' .. c end))
end

function O.bytes_before(a, b)
    local n = math.min(#a, #b)
    for i = 1, n do
        local x, y = string.byte(a, i), string.byte(b, i)
        if x ~= y then return x < y end
    end
    return #a < #b
end

-- ---------------------------------------------------------------- giving tasks back (reject, release)

-- Takes the named tasks back from the consumer and, per ordered partition, every task it holds after
-- the lowest named one (rule 5). decide(id, record, named) returns each task's outcome code.
-- Reply: one outcome per id given (0 = lease lost), then id and outcome of each unnamed task, in key order.
function O.give_back(consumer, ids, decide)
    local named, lowest = {}, {}
    local affected = {}
    for _, id in ipairs(ids) do
        local r = O.load(id)
        if r and r.state == O.STATE_IN_FLIGHT and r.holder == consumer then
            r.id, r.m, r.named = id, O.member(r, id), true
            named[id] = r
            affected[#affected + 1] = r
            if O.is_ordered(r.code) and (not lowest[r.code] or O.member_before(r.m, lowest[r.code])) then
                lowest[r.code] = r.m
            end
        end
    end
    for code, low in pairs(lowest) do
        for _, m in ipairs(O.call('ZRANGEBYLEX', O.flight_key(code), '(' .. low, '+')) do
            local id = O.member_id(m)
            if not named[id] then
                local r = O.load(id)
                if r and r.state == O.STATE_IN_FLIGHT and r.holder == consumer then
                    r.id, r.m, r.named = id, m, false
                    affected[#affected + 1] = r
                end
            end
        end
    end
    -- seq order, so tasks re-enter their partitions (and empty partitions get turns) in one fixed order
    table.sort(affected, function(a, b) return a.seq < b.seq end)
    for _, r in ipairs(affected) do
        O.leave_flight(r.id, r, r.m)
        r.outcome = decide(r.id, r, r.named)
    end
    for _, r in ipairs(affected) do O.release_lock_if_done(consumer, r.code) end
    local reply = {}
    for i, id in ipairs(ids) do reply[i] = named[id] and named[id].outcome or 0 end
    local unnamed = {}
    for _, r in ipairs(affected) do
        if not r.named then unnamed[#unnamed + 1] = r end
    end
    table.sort(unnamed, function(a, b) return O.member_before(a.m, b.m) end)
    for _, r in ipairs(unnamed) do
        reply[#reply + 1] = r.id
        reply[#reply + 1] = r.outcome
    end
    return reply, named
end

-- ---------------------------------------------------------------- dead letters

-- Back into the partition with attempts reset, due now; priority, seq and last error kept.
function O.redrive(id)
    local r = O.load(id)
    if not r or r.state ~= O.STATE_DEAD then return false end
    O.call('ZREM', O.K_DEAD, id)
    r.attempts, r.due, r.ready = 0, O.NOW, O.NOW
    O.put_waiting(id, r)
    return true
end

function O.purge(id)
    if O.call('ZREM', O.K_DEAD, id) == 0 then return false end
    O.call('HDEL', O.K_TASKS, id)
    return true
end

-- The library's names, for the script bodies: one per line, so a script gets only those it uses
-- (RedisScript keeps the statements of this file a script needs, see ScriptAssembler).
local K_META = O.K_META
local K_TASKS = O.K_TASKS
local K_READY = O.K_READY
local K_DELAYED = O.K_DELAYED
local K_WAKE = O.K_WAKE
local K_BLOCKED = O.K_BLOCKED
local K_TURNS = O.K_TURNS
local K_SIZES = O.K_SIZES
local K_LOCKS = O.K_LOCKS
local K_LEASED = O.K_LEASED
local K_CONSUMERS = O.K_CONSUMERS
local K_DEAD = O.K_DEAD
local K_ACKED = O.K_ACKED
local K_READYAT = O.K_READYAT
local K_READYAT_N = O.K_READYAT_N
local K_SIGNAL = O.K_SIGNAL
local K_HEARTBEATS = O.K_HEARTBEATS
local K_LOCK_SINCE = O.K_LOCK_SINCE
local PREFIX = O.PREFIX
local STATE_WAITING = O.STATE_WAITING
local STATE_IN_FLIGHT = O.STATE_IN_FLIGHT
local STATE_DEAD = O.STATE_DEAD
local FLAG_PRIORITY = O.FLAG_PRIORITY
local FLAG_ATTEMPTS = O.FLAG_ATTEMPTS
local FLAG_DUE = O.FLAG_DUE
local FLAG_READY = O.FLAG_READY
local FLAG_ERROR = O.FLAG_ERROR
local PRIORITY_SPAN = O.PRIORITY_SPAN
local ORDERED_MARK = O.ORDERED_MARK
local call = O.call
local clock_now = O.clock_now
local hex = O.hex
local run_key = O.run_key
local rest_key = O.rest_key
local flight_key = O.flight_key
local consumer_key = O.consumer_key
local is_ordered = O.is_ordered
local has = O.has
local int = O.int
local settings = O.settings
local counter = O.counter
local count = O.count
local next_counter = O.next_counter
local save_counters = O.save_counters
local tail_code = O.tail_code
local decode = O.decode
local encode = O.encode
local load = O.load
local save = O.save
local save_unsaved = O.save_unsaved
local member = O.member
local member_seq = O.member_seq
local member_id = O.member_id
local member_priority = O.member_priority
local member_before = O.member_before
local forget = O.forget
local part_insert = O.part_insert
local live = O.live
local part_head = O.part_head
local part_pop = O.part_pop
local touch = O.touch
local drop_partition = O.drop_partition
local turn_of = O.turn_of
local set_turn = O.set_turn
local is_blocked = O.is_blocked
local refresh = O.refresh
local PROMOTE_LIMIT = O.PROMOTE_LIMIT
local promote_due = O.promote_due
local readyat_add = O.readyat_add
local readyat_remove = O.readyat_remove
local put_waiting = O.put_waiting
local leave_waiting = O.leave_waiting
local leave_flight = O.leave_flight
local release_lock_if_done = O.release_lock_if_done
local bury = O.bury
local finish = O.finish
local java_order_key = O.java_order_key
local bytes_before = O.bytes_before
local give_back = O.give_back
local redrive = O.redrive
local purge = O.purge

-- Reads the time (or the override) once for the whole call.
local function start(clock)
    O.NOW = O.clock_now(clock)
    return O.NOW
end

-- ---------------------------------------------------------------- script body
