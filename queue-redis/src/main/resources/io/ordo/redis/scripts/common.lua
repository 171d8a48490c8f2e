-- Shared by every Ordo script: placed right after each script's shebang line when the scripts load
-- (see RedisScript). The rules implemented here are those of docs/semantics.md; the key layout and
-- the record format are explained in docs/redis-design.md.

-- The queue's fixed keys, in KeySchema order. Every script receives all of them.
local K_META      = KEYS[1]   -- hash: settings, counters, paused flag
local K_TASKS     = KEYS[2]   -- hash: task id -> packed record (waiting, in flight or dead)
local K_READY     = KEYS[3]   -- zset: eligible partitions, score (1000 - head priority) * 2^42 + turn
local K_DELAYED   = KEYS[4]   -- zset: waiting task ids not ready when they arrived, by readyAt
local K_WAKE      = KEYS[5]   -- zset: ordered partitions whose head is not ready yet, by the head's readyAt
local K_BLOCKED   = KEYS[6]   -- zset: blocked partitions, by blockedUntil
local K_TURNS     = KEYS[7]   -- hash: partition code -> turn; a partition exists while it is here
local K_SIZES     = KEYS[8]   -- hash: partition code -> number of waiting tasks
local K_LOCKS     = KEYS[9]   -- hash: ordered partition code -> consumer holding it
local K_LEASED    = KEYS[10]  -- zset: in-flight task ids, by leasedAt
local K_CONSUMERS = KEYS[11]  -- zset: consumers, by expiresAt
local K_DEAD      = KEYS[12]  -- zset: dead-letter ids, by the order they died
local K_ACKED     = KEYS[13]  -- zset: acked ids inside the dedup window, by when they may be used again
local K_READYAT   = KEYS[14]  -- zset: the distinct readyAt values of waiting tasks (oldest due task)
local K_READYAT_N = KEYS[15]  -- hash: readyAt -> number of waiting tasks with it
local K_SIGNAL    = KEYS[16]  -- list: one element while work may be waiting for a blocked consumer

-- Per-partition and per-consumer keys: the prefix, a kind, and the code or name in hex, so no
-- user-chosen text can ever spell another key.
local PREFIX = string.sub(K_META, 1, -5)

local STATE_WAITING, STATE_IN_FLIGHT, STATE_DEAD = 0, 1, 2
local FLAG_PRIORITY, FLAG_ATTEMPTS, FLAG_DUE, FLAG_READY, FLAG_ERROR = 4, 8, 16, 32, 64
local PRIORITY_SPAN = 4398046511104 -- 2^42: times and turns stay below it, so scores stay exact
local ORDERED_MARK = 33             -- '!'

-- Set by each script from ARGV[1] before anything else runs.
local NOW

-- redis.call that names the key in the error, so a foreign key of the wrong type is easy to find.
local function call(...)
    local reply = redis.pcall(...)
    if type(reply) == 'table' and reply.err then
        error({ err = reply.err .. ' (key ' .. tostring(select(2, ...)) .. ')' })
    end
    return reply
end

local function clock_now(override)
    if override ~= '' then
        return tonumber(override)
    end
    local time = redis.call('TIME')
    return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end

local hex_cache = {}
local function hex(text)
    local encoded = hex_cache[text]
    if not encoded then
        encoded = string.gsub(text, '.', function(c) return string.format('%02x', string.byte(c)) end)
        hex_cache[text] = encoded
    end
    return encoded
end

local function run_key(code) return PREFIX .. 'pr:' .. hex(code) end      -- list: in-order arrivals
local function rest_key(code) return PREFIX .. 'pz:' .. hex(code) end     -- zset: all other waiting tasks
local function flight_key(code) return PREFIX .. 'pf:' .. hex(code) end   -- zset: held tasks of an ordered partition
local function consumer_key(name) return PREFIX .. 'c:' .. hex(name) end  -- zset: ids a consumer holds, by seq

local function is_ordered(code) return string.byte(code, 1) == ORDERED_MARK end

local function has(flags, flag) return bit.band(flags, flag) ~= 0 end

local function int(n) return string.format('%.0f', n) end

-- Defaults mirror QueueSettings.DEFAULTS (a test keeps them equal).
local function settings()
    local v = call('HMGET', K_META, 'maxAttempts', 'processingTimeoutMs', 'dedupWindowMs', 'heartbeatTtlMs',
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
local counters, counters_changed = {}, {}
local function counter(field)
    local value = counters[field]
    if value == nil then
        value = tonumber(call('HGET', K_META, field)) or 0
        counters[field] = value
    end
    return value
end

local function count(field, delta)
    local value = counter(field) + delta
    counters[field] = value
    counters_changed[#counters_changed + 1] = field
    return value
end

local function next_counter(field) return count(field, 1) end

local function save_counters()
    if #counters_changed == 0 then return end
    local args, seen = {}, {}
    for _, field in ipairs(counters_changed) do
        if not seen[field] then
            seen[field] = true
            args[#args + 1] = field
            args[#args + 1] = counters[field]
        end
    end
    call('HSET', K_META, unpack(args))
    counters_changed = {}
end

-- ---------------------------------------------------------------- the task record
-- flags(1) seq(6) publishedAt(6) [priority+1000(2)] [attempts(2)] [dueAt(6)] [readyAt(6)]
-- [lastError: len(2) bytes] [in flight: leasedAt(6) holder len(2) bytes | dead: deadAt(6)]
-- tail: code len(2) bytes, header count(1) headers, payload. The tail never changes after publish.

local function tail_code(tail)
    local n = struct.unpack('>I2', tail)
    return string.sub(tail, 3, 2 + n)
end

local function decode(s)
    local flags, seq, published, pos = struct.unpack('>BI6I6', s)
    local r = { state = flags % 4, seq = seq, published = published, priority = 0, attempts = 0 }
    if has(flags, FLAG_PRIORITY) then
        r.priority, pos = struct.unpack('>H', s, pos)
        r.priority = r.priority - 1000
    end
    if has(flags, FLAG_ATTEMPTS) then r.attempts, pos = struct.unpack('>H', s, pos) end
    r.due = published
    if has(flags, FLAG_DUE) then r.due, pos = struct.unpack('>I6', s, pos) end
    r.ready = r.due
    if has(flags, FLAG_READY) then r.ready, pos = struct.unpack('>I6', s, pos) end
    local n
    if has(flags, FLAG_ERROR) then
        n, pos = struct.unpack('>I2', s, pos)
        r.error = string.sub(s, pos, pos + n - 1)
        pos = pos + n
    end
    if r.state == STATE_IN_FLIGHT then
        r.at, n, pos = struct.unpack('>I6I2', s, pos)
        r.holder = string.sub(s, pos, pos + n - 1)
        pos = pos + n
    elseif r.state == STATE_DEAD then
        r.at, pos = struct.unpack('>I6', s, pos)
    end
    r.tail = string.sub(s, pos)
    r.code = tail_code(r.tail)
    return r
end

local function encode(r)
    local flags = r.state
    local parts = { '' }
    if r.priority ~= 0 then
        flags = flags + FLAG_PRIORITY
        parts[#parts + 1] = struct.pack('>H', r.priority + 1000)
    end
    if r.attempts ~= 0 then
        flags = flags + FLAG_ATTEMPTS
        parts[#parts + 1] = struct.pack('>H', r.attempts)
    end
    if r.due ~= r.published then
        flags = flags + FLAG_DUE
        parts[#parts + 1] = struct.pack('>I6', r.due)
    end
    if r.ready ~= r.due then
        flags = flags + FLAG_READY
        parts[#parts + 1] = struct.pack('>I6', r.ready)
    end
    if r.error then
        flags = flags + FLAG_ERROR
        parts[#parts + 1] = struct.pack('>I2', #r.error) .. r.error
    end
    if r.state == STATE_IN_FLIGHT then
        parts[#parts + 1] = struct.pack('>I6I2', r.at, #r.holder) .. r.holder
    elseif r.state == STATE_DEAD then
        parts[#parts + 1] = struct.pack('>I6', r.at)
    end
    parts[1] = struct.pack('>BI6I6', flags, r.seq, r.published)
    parts[#parts + 1] = r.tail
    return table.concat(parts)
end

local function load(id)
    local s = call('HGET', K_TASKS, id)
    if not s then return nil end
    return decode(s)
end

local function save(id, r) call('HSET', K_TASKS, id, encode(r)) end

-- ---------------------------------------------------------------- order inside a partition
-- A member is score(7) seq(6) id, score = (1000 - priority) * 2^42 + dueAt: its fixed-width prefix
-- sorts byte-wise exactly like the ordering key (priority desc, dueAt asc, seq asc).

local function member(r, id)
    return struct.pack('>I7I6', (1000 - r.priority) * PRIORITY_SPAN + r.due, r.seq) .. id
end

local function member_seq(m)
    local _, seq = struct.unpack('>I7I6', m)
    return seq
end

local function member_id(m) return string.sub(m, 14) end

-- Compares the numeric prefixes (Lua's own string order follows the server's locale).
local function member_before(a, b)
    local score_a, seq_a = struct.unpack('>I7I6', a)
    local score_b, seq_b = struct.unpack('>I7I6', b)
    if score_a ~= score_b then return score_a < score_b end
    return seq_a < seq_b
end

-- What this call learnt about partitions, so a batch touching one partition many times reads it once.
local heads = {}      -- code -> {member, record, from_run}, or false when it has no waiting member
local tails = {}      -- code -> last member of its list (or one after it), or false when the list is empty
local turns = {}      -- code -> turn
local any_blocked     -- whether any block exists at all

local function forget(code)
    heads[code] = nil
end

-- A partition's waiting tasks live in two places: a list taking every arrival that sorts after the
-- list's last member (the usual case: publish order), and a sorted set for the rest. The list costs a
-- few bytes per task; the head is the lower of the two heads.
local function part_insert(code, m)
    local last = tails[code]
    if last == nil then last = call('LINDEX', run_key(code), -1) end
    if not last or member_before(last, m) then
        call('RPUSH', run_key(code), m)
        tails[code] = m
    else
        call('ZADD', rest_key(code), 0, m)
    end
    forget(code)
end

-- The record of a member if it still names a waiting task (a cancelled task leaves its list member
-- behind; it is dropped when it reaches the front).
local function live(m)
    local r = load(member_id(m))
    if r and r.state == STATE_WAITING and r.seq == member_seq(m) then return r end
    return nil
end

-- The partition's lowest waiting member: member, record, whether it is the list's front.
local function part_head(code)
    local known = heads[code]
    if known ~= nil then
        if known then return known[1], known[2], known[3] end
        return nil
    end
    local run = run_key(code)
    local a, ra
    while true do
        a = call('LINDEX', run, 0)
        if not a then break end
        ra = live(a)
        if ra then break end
        call('LPOP', run)
    end
    local rest = rest_key(code)
    local b, rb
    while true do
        b = call('ZRANGE', rest, 0, 0)[1]
        if not b then break end
        rb = live(b)
        if rb then break end
        call('ZREM', rest, b)
    end
    if a and (not b or member_before(a, b)) then
        heads[code] = { a, ra, true }
        return a, ra, true
    end
    if b then
        heads[code] = { b, rb, false }
        return b, rb, false
    end
    heads[code] = false
    return nil
end

local function part_pop(code, m, from_run)
    if from_run then
        call('LPOP', run_key(code))
    else
        call('ZREM', rest_key(code), m)
    end
    forget(code)
end

-- ---------------------------------------------------------------- partitions and eligibility

local touched, touched_order = {}, {}
local function touch(code)
    if not touched[code] then
        touched[code] = true
        touched_order[#touched_order + 1] = code
    end
end

local function drop_partition(code)
    call('HDEL', K_SIZES, code)
    call('HDEL', K_TURNS, code)
    call('DEL', run_key(code), rest_key(code))
    heads[code], tails[code], turns[code] = false, false, false
end

local function turn_of(code)
    local turn = turns[code]
    if turn == nil then
        turn = tonumber(call('HGET', K_TURNS, code)) or false
        turns[code] = turn
    end
    return turn
end

local function set_turn(code, turn)
    call('HSET', K_TURNS, code, turn)
    turns[code] = turn
end

local function is_blocked(code)
    if any_blocked == nil then any_blocked = call('EXISTS', K_BLOCKED) == 1 end
    if not any_blocked then return false end
    local blocked_until = call('ZSCORE', K_BLOCKED, code)
    return blocked_until ~= false and tonumber(blocked_until) > NOW
end

-- Puts a partition in the index of eligible partitions, or takes it out, from its current state.
local function refresh(code)
    local turn = turn_of(code)
    local m, r
    if turn and not (is_ordered(code) and call('HEXISTS', K_LOCKS, code) == 1) and not is_blocked(code) then
        m, r = part_head(code)
    end
    if m and r.ready <= NOW then
        call('ZADD', K_READY, (1000 - r.priority) * PRIORITY_SPAN + turn, code)
    else
        call('ZREM', K_READY, code)
    end
    if m and r.ready > NOW then
        call('ZADD', K_WAKE, r.ready, code) -- an ordered head waiting for its time
    elseif is_ordered(code) then
        call('ZREM', K_WAKE, code)
    end
end

-- Applies what time has made true since the last consume: delayed tasks that are due join their
-- partitions, ordered heads and blocks whose time has come are looked at again.
-- At most PROMOTE_LIMIT tasks per call, earliest first, so one call never stalls the server; the rest
-- follow in the next calls.
local PROMOTE_LIMIT = 10000
local function promote_due()
    local due = call('ZRANGEBYSCORE', K_DELAYED, '-inf', NOW, 'LIMIT', 0, PROMOTE_LIMIT)
    for _, id in ipairs(due) do
        local r = load(id)
        if not is_ordered(r.code) then part_insert(r.code, member(r, id)) end
        touch(r.code)
    end
    if #due > 0 then call('ZREMRANGEBYRANK', K_DELAYED, 0, #due - 1) end
    for _, code in ipairs(call('ZRANGEBYSCORE', K_WAKE, '-inf', NOW)) do touch(code) end
    local unblocked = call('ZRANGEBYSCORE', K_BLOCKED, '-inf', NOW)
    for _, code in ipairs(unblocked) do touch(code) end
    if #unblocked > 0 then call('ZREMRANGEBYRANK', K_BLOCKED, 0, #unblocked - 1) end
end

local function readyat_add(t)
    if call('HINCRBY', K_READYAT_N, t, 1) == 1 then call('ZADD', K_READYAT, t, t) end
end

local function readyat_remove(t)
    if call('HINCRBY', K_READYAT_N, t, -1) <= 0 then
        call('HDEL', K_READYAT_N, t)
        call('ZREM', K_READYAT, t)
    end
end

-- A task joins its partition (publish, return, redrive); an empty partition gets a new turn.
local function put_waiting(id, r)
    r.state, r.at, r.holder = STATE_WAITING, nil, nil
    save(id, r)
    local code = r.code
    if call('HINCRBY', K_SIZES, code, 1) == 1 then
        set_turn(code, next_counter('turn'))
    end
    count('waiting', 1)
    readyat_add(r.ready)
    if r.ready > NOW then call('ZADD', K_DELAYED, r.ready, id) end
    if r.ready <= NOW or is_ordered(code) then part_insert(code, member(r, id)) end
    touch(code)
end

-- A waiting task leaves its partition (taken or cancelled); the caller has removed its member.
-- Returns whether the partition still exists.
local function leave_waiting(r)
    count('waiting', -1)
    readyat_remove(r.ready)
    forget(r.code)
    touch(r.code)
    if call('HINCRBY', K_SIZES, r.code, -1) <= 0 then
        drop_partition(r.code)
        return false
    end
    return true
end

-- An in-flight task leaves the consumer's hands (its record is rewritten by the caller).
local function leave_flight(id, r, m)
    call('ZREM', K_LEASED, id)
    call('ZREM', consumer_key(r.holder), id)
    if is_ordered(r.code) then call('ZREM', flight_key(r.code), m or member(r, id)) end
end

local function release_lock_if_done(consumer, code)
    if is_ordered(code) and call('HGET', K_LOCKS, code) == consumer
            and call('ZCARD', flight_key(code)) == 0 then
        call('HDEL', K_LOCKS, code)
        touch(code)
    end
end

local function bury(id, r, reason)
    r.state, r.at, r.holder, r.error = STATE_DEAD, NOW, nil, reason
    save(id, r)
    call('ZADD', K_DEAD, next_counter('deadSeq'), id)
    count('deadLetteredTotal', 1)
end

-- Recomputes every partition touched by this call and wakes a blocked consumer if work is waiting.
local function finish()
    for _, code in ipairs(touched_order) do refresh(code) end
    touched, touched_order = {}, {}
    save_counters()
    if call('ZCARD', K_READY) > 0 and call('EXISTS', K_SIGNAL) == 0 then
        call('RPUSH', K_SIGNAL, 1)
    end
end

-- Binary-safe "a before b" for names, in Java's String order (UTF-16 units): a 4-byte UTF-8 sequence
-- (a surrogate pair in Java) sorts as if it stood between U+D7FF and U+E000.
local function java_order_key(s)
    return (string.gsub(s, '[\240-\244][\128-\191][\128-\191][\128-\191]', function(c) return '\237\192' .. c end))
end

local function bytes_before(a, b)
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
local function give_back(consumer, ids, decide)
    local named, lowest = {}, {}
    local affected = {}
    for _, id in ipairs(ids) do
        local r = load(id)
        if r and r.state == STATE_IN_FLIGHT and r.holder == consumer then
            r.id, r.m, r.named = id, member(r, id), true
            named[id] = r
            affected[#affected + 1] = r
            if is_ordered(r.code) and (not lowest[r.code] or member_before(r.m, lowest[r.code])) then
                lowest[r.code] = r.m
            end
        end
    end
    for code, low in pairs(lowest) do
        for _, m in ipairs(call('ZRANGEBYLEX', flight_key(code), '(' .. low, '+')) do
            local id = member_id(m)
            if not named[id] then
                local r = load(id)
                if r and r.state == STATE_IN_FLIGHT and r.holder == consumer then
                    r.id, r.m, r.named = id, m, false
                    affected[#affected + 1] = r
                end
            end
        end
    end
    -- seq order, so tasks re-enter their partitions (and empty partitions get turns) in one fixed order
    table.sort(affected, function(a, b) return a.seq < b.seq end)
    for _, r in ipairs(affected) do
        leave_flight(r.id, r, r.m)
        r.outcome = decide(r.id, r, r.named)
    end
    for _, r in ipairs(affected) do release_lock_if_done(consumer, r.code) end
    local reply = {}
    for i, id in ipairs(ids) do reply[i] = named[id] and named[id].outcome or 0 end
    local unnamed = {}
    for _, r in ipairs(affected) do
        if not r.named then unnamed[#unnamed + 1] = r end
    end
    table.sort(unnamed, function(a, b) return member_before(a.m, b.m) end)
    for _, r in ipairs(unnamed) do
        reply[#reply + 1] = r.id
        reply[#reply + 1] = r.outcome
    end
    return reply, named
end

-- ---------------------------------------------------------------- dead letters

-- Back into the partition with attempts reset, due now; priority, seq and last error kept.
local function redrive(id)
    local r = load(id)
    if not r or r.state ~= STATE_DEAD then return false end
    call('ZREM', K_DEAD, id)
    r.attempts, r.due, r.ready = 0, NOW, NOW
    put_waiting(id, r)
    return true
end

local function purge(id)
    if call('ZREM', K_DEAD, id) == 0 then return false end
    call('HDEL', K_TASKS, id)
    return true
end

-- ---------------------------------------------------------------- script body
