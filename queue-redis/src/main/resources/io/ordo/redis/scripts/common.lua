-- Shared by every Ordo function: the top of the one Redis Functions library (see RedisLibrary), loaded
-- once per server. The rules implemented here are those of docs/semantics.md; the key layout and the
-- record format are explained in docs/redis-design.md.

-- Everything lives in one table: closures that capture a single table are made far faster than
-- closures capturing dozens of locals.
local O = {}

-- The queue's fixed keys: the prefix (from the one declared key, `meta`) and these kinds. Each
-- function binds them to locals K_<KIND> in this order (function_prelude.lua).
O.KINDS = {
    'meta',          -- hash: settings, paused flag, counters
    'tasks',         -- hash: task id -> packed record (waiting, in flight or dead)
    'ready',         -- zset: eligible partitions, score (1000 - head priority) * 2^42 + turn
    'delayed',       -- zset: waiting task ids not ready when they arrived, by readyAt
    'wake',          -- zset: ordered partitions whose head is not ready yet, by the head's readyAt
    'blocked',       -- zset: blocked partitions, by blockedUntil
    'turns',         -- hash: partition code -> turn, for every partition that exists and is not in `ready`
    'parked',        -- hash: partition code -> its waiting tasks outside its list (sorted set, regular delayed)
    'stale',         -- hash: partition code -> cancelled tasks' members left in its list
    'locks',         -- hash: ordered partition code -> consumer holding it
    'consumers',     -- zset: consumers, by expiresAt
    'dead',          -- zset: dead-letter ids, by the order they died
    'acked',         -- zset: acked ids inside the dedup window, by when they may be used again
    'readyat',       -- zset: the distinct readyAt values of waiting tasks (oldest due task)
    'readyat-count', -- hash: readyAt -> number of waiting tasks with it
    'signal',        -- list: one element while work may be waiting for a blocked consumer
    'heartbeats',    -- hash: consumer -> when it last heartbeated or consumed (inspect)
    'lock-since',    -- hash: ordered partition code -> when its holder locked it (inspect)
}

O.STATE_WAITING, O.STATE_IN_FLIGHT, O.STATE_DEAD = 0, 1, 2
O.FLAG_PRIORITY, O.FLAG_ATTEMPTS, O.FLAG_DUE, O.FLAG_READY, O.FLAG_ERROR = 4, 8, 16, 32, 64
O.PRIORITY_SPAN = 4398046511104 -- 2^42: times and turns stay below it, so scores stay exact
O.ORDERED_MARK = 33             -- '!'
O.ORDERED_LEASE = 111           -- 'o': a lease value of a task of an ordered partition starts with it

-- The keys of the queues this server's library has served, by meta key (bounded: a server may hold
-- many queues, and the library's memory lives as long as the server).
O.key_sets, O.key_set_count = {}, 0

-- Called first by every function: binds the queue's keys and forgets what the previous call learnt.
-- Returns the fixed keys in O.KINDS order.
function O.begin(keys)
    local meta = keys[1]
    local set = O.key_sets[meta]
    if not set then
        if O.key_set_count >= 1000 then O.key_sets, O.key_set_count = {}, 0 end
        local prefix = string.sub(meta, 1, -5)
        set = { prefix = prefix }
        for i, kind in ipairs(O.KINDS) do set[i] = prefix .. kind end
        O.key_sets[meta], O.key_set_count = set, O.key_set_count + 1
    end
    O.PREFIX = set.prefix
    O.K_META, O.K_TASKS, O.K_READY, O.K_DELAYED, O.K_WAKE, O.K_BLOCKED, O.K_TURNS, O.K_PARKED, O.K_STALE,
        O.K_LOCKS, O.K_CONSUMERS, O.K_DEAD, O.K_ACKED, O.K_READYAT, O.K_READYAT_N, O.K_SIGNAL,
        O.K_HEARTBEATS, O.K_LOCK_SINCE = unpack(set)
    O.meta_fields = nil
    O.c, O.counters_changed = nil, false
    O.next_timer, O.next_timer_changed = nil, false
    O.unsaved, O.unsaved_order = nil, {}
    O.heads, O.tails, O.fronts = {}, {}, {}
    O.any_blocked = nil
    O.touched, O.touched_order = {}, {}
    O.readyat_delta, O.readyat_order = {}, {}
    O.new_due_time = false
    O.delayed_exists = nil
    O.wake_exists = nil
    O.verified, O.verified_codes = {}, {}
    O.take_prepared, O.promotion, O.list_lengths = false, nil, {}
    return set
end

-- ---------------------------------------------------------------- keys of the wrong type
-- A key under the queue's prefix that something other than Ordo wrote may hold another type than the
-- one Ordo keeps there. Redis refuses a command on it (WRONGTYPE) but keeps what the call wrote before,
-- and a function has no rollback: so every function that writes first reads, with one cheap command per
-- key that fails on any other type, every key it may touch, before its first write (docs/redis-design.md,
-- "Keys of the wrong type"). A key checked once is not checked again in the call.
O.KIND_TYPES = {
    meta = 'hash', tasks = 'hash', ready = 'zset', delayed = 'zset', wake = 'zset', blocked = 'zset',
    turns = 'hash', parked = 'hash', stale = 'hash', locks = 'hash', consumers = 'zset', dead = 'zset',
    acked = 'zset', readyat = 'zset', ['readyat-count'] = 'hash', signal = 'list', heartbeats = 'hash',
    ['lock-since'] = 'hash',
}
O.TYPE_PROBES = { hash = 'HEXISTS', zset = 'ZCARD', list = 'LLEN' }

-- Returns what the probe read (a list's length, a sorted set's size), or nil when the key was checked before.
function O.verify(key, kind_type)
    if O.verified[key] then return nil end
    local reply
    if kind_type == 'hash' then
        reply = redis.pcall('HEXISTS', key, '')
    else
        reply = redis.pcall(O.TYPE_PROBES[kind_type], key)
    end
    if type(reply) == 'table' and reply.err then
        local held = redis.call('TYPE', key)
        error({ err = 'WRONGTYPE key ' .. key .. ' holds a ' .. tostring(held.ok or held) .. ' where Ordo keeps a '
            .. kind_type .. ' (written by something other than Ordo); nothing was changed' })
    end
    O.verified[key] = true
    return reply
end

-- Every fixed key of the queue, but those in `skip` (kind -> true): kinds the function never touches, or
-- reads before its first write (a read fails on a key of the wrong type as a probe does).
function O.verify_fixed(skip)
    local set = O.key_sets[O.K_META]
    for i, kind in ipairs(O.KINDS) do
        if not (skip and skip[kind]) then O.verify(set[i], O.KIND_TYPES[kind]) end
    end
end
-- The hot paths' kinds to skip. publish reads `meta` and `tasks` first and never touches a consumer's
-- keys or the dead letters; a consume reads `meta` first (its probes come after the settings are read)
-- and never touches dead letters or acked ids; an ack reads `meta` first and never touches consumers'
-- registrations or dead letters (ack_consume probes for both, before its acks write).
O.PUBLISH_SKIPS = { meta = true, tasks = true, consumers = true, heartbeats = true, ['lock-since'] = true,
    dead = true }
O.TAKE_SKIPS = { meta = true, dead = true, acked = true }
O.ACK_SKIPS = { meta = true, consumers = true, heartbeats = true, dead = true }

-- The keys of a partition: its list, its sorted set, and (ordered) its in-flight set; only its list when
-- list_only (a write the caller knows is an append to the list).
function O.verify_partition(code, list_only)
    if O.verified_codes[code] then return end
    if list_only then
        O.verify(O.run_key(code), 'list')
        return
    end
    O.verified_codes[code] = true
    O.verify(O.run_key(code), 'list')
    O.verify(O.rest_key(code), 'zset')
    if O.is_ordered(code) then O.verify(O.flight_key(code), 'zset') end
end

-- The hash of the tasks a consumer holds.
function O.verify_consumer(name) O.verify(O.holding_key(name), 'hash') end

-- redis.call that names the key in the error, so a foreign key of the wrong type is easy to find.
function O.call(...)
    local reply = redis.pcall(...)
    if type(reply) == 'table' and reply.err then
        error({ err = reply.err .. ' (key ' .. tostring(select(2, ...)) .. ')' })
    end
    return reply
end

-- Work in chunks (promotion of due tasks, redrive all, reclaim) also stops once a chunk has run this long
-- on the server, whatever its count: a loaded server does less per call, not longer calls.
O.CHUNK_MICROS = 1500
function O.server_micros()
    local time = redis.call('TIME')
    return tonumber(time[1]) * 1000000 + tonumber(time[2])
end

-- Whether a chunk that began at `began` (server_micros) has used `micros`; asked every few items.
function O.spent(began, micros) return O.server_micros() - began >= micros end

function O.clock_now(override)
    if override ~= '' then
        return tonumber(override)
    end
    local time = redis.call('TIME')
    return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end

-- Reads the time (or the override) once for the whole call.
function O.start(clock)
    O.NOW = O.clock_now(clock)
    return O.NOW
end

-- One string.format over all the bytes: a gsub calling a function per byte cost ~3 µs for a short name.
function O.hex(text)
    local n = #text
    if n <= 256 then
        return (string.format(string.rep('%02x', n), string.byte(text, 1, n)))
    end
    local parts = {} -- long codes: in slices, to keep the argument count small
    for i = 1, n, 256 do
        local j = math.min(i + 255, n)
        parts[#parts + 1] = string.format(string.rep('%02x', j - i + 1), string.byte(text, i, j))
    end
    return table.concat(parts)
end

-- Per-partition and per-consumer keys: the prefix, a kind, then the code or name. A code or name made of
-- letters, digits and `_ . - !` alone follows `=` as it is; any other follows `:` in lower-case hex. So
-- no user-chosen text can spell another key (the kinds differ before it, `=` and `:` tell the two forms
-- apart, and no form holds `}`, which ends the queue's tag), and the usual codes cost no encoding.
-- Kept across calls (partitions are served again and again), up to a bound.
O.PLAIN_NAME = '^[0-9A-Za-z_.!%-]+$'
O.name_parts, O.name_parts_cached = {}, 0
function O.name_part(text)
    local part = O.name_parts[text]
    if not part then
        if O.name_parts_cached >= 10000 then O.name_parts, O.name_parts_cached = {}, 0 end
        O.name_parts_cached = O.name_parts_cached + 1
        if string.find(text, O.PLAIN_NAME) then part = '=' .. text else part = ':' .. O.hex(text) end
        O.name_parts[text] = part
    end
    return part
end

-- list: in-order arrivals. The hot path names it for every task: kept per queue across calls, up to a bound.
O.run_keys, O.run_keys_cached = {}, 0
function O.run_key(code)
    local queue_keys = O.run_keys[O.PREFIX]
    if not queue_keys then
        queue_keys = {}
        O.run_keys[O.PREFIX] = queue_keys
    end
    local key = queue_keys[code]
    if not key then
        if O.run_keys_cached >= 10000 then
            queue_keys = {}
            O.run_keys, O.run_keys_cached = { [O.PREFIX] = queue_keys }, 0
        end
        key = O.PREFIX .. 'pr' .. O.name_part(code)
        queue_keys[code] = key
        O.run_keys_cached = O.run_keys_cached + 1
    end
    return key
end
function O.rest_key(code) return O.PREFIX .. 'pz' .. O.name_part(code) end     -- zset: all other waiting tasks
function O.flight_key(code) return O.PREFIX .. 'pf' .. O.name_part(code) end   -- zset: held tasks of an ordered partition
function O.holding_key(name) return O.PREFIX .. 'f' .. O.name_part(name) end   -- hash: task id -> lease, per consumer

function O.is_ordered(code) return string.byte(code, 1) == O.ORDERED_MARK end

function O.has(flags, flag) return bit.band(flags, flag) ~= 0 end

-- An integer as its decimal text. Numbers handed to redis.call as they are go through "%.17g", which costs
-- several times what '%d' does: the hot paths hand over text.
function O.int(n) return string.format('%d', n) end

-- ---------------------------------------------------------------- settings and counters
-- The queue's meta hash is read once per call with one HMGET: the settings, the paused flag and
-- `counters`, every counter packed in one value (one field to find and one to write, not one per
-- counter). Counters are written back once by finish().

-- The packed counters, in this order, each a big-endian double (exact for integers below 2^53).
-- nextTimer: the earliest time something may fall due, -1 for none (see note_timer).
-- lowestListed / latestListed: the lowest priority and the latest dueAt any list member ever had. A new
-- task with no higher priority and no earlier dueAt sorts after every list member: a publish appends it
-- without reading the list's last member.
-- highestListed: the highest priority any list member ever had; while it equals lowestListed, every
-- partition in `ready` has the same head priority, so a served one always goes back behind the others.
O.COUNTERS = { 'seq', 'turn', 'waiting', 'rest', 'stale', 'parked', 'lowestListed', 'latestListed', 'highestListed',
    'ackedTotal', 'publishedTotal', 'deadLetteredTotal', 'deadSeq', 'nextTimer' }
O.COUNTERS_FORMAT = '>dddddddddddddd' -- one d per counter
O.COUNTER_DEFAULTS = { 0, 0, 0, 0, 0, 0, 1001, 0, -1001, 0, 0, 0, 0, -1 }
O.COUNTER_COUNT = 14
-- A call keeps the counters as an array in this order (O.c), unpacked and packed by one C call each:
-- a Lua loop over the names cost more than the rest of a short call.
-- Built at the first call: a library's top level has no ipairs.
O.COUNTER_INDEX = nil
O.NEXT_TIMER = 14

-- Defaults mirror QueueSettings.DEFAULTS (a test keeps them equal).
function O.meta()
    local m = O.meta_fields
    if not m then
        local v = O.call('HMGET', O.K_META, 'maxAttempts', 'processingTimeoutMs', 'dedupWindowMs', 'heartbeatTtlMs',
            'maxPayloadBytes', 'paused', 'counters')
        m = {
            max_attempts = tonumber(v[1]) or 5,
            processing_timeout = tonumber(v[2]) or 0,
            dedup_window = tonumber(v[3]) or 0,
            heartbeat_ttl = tonumber(v[4]) or 30000,
            max_payload = tonumber(v[5]) or 1048576,
            paused = v[6] ~= false,
        }
        O.meta_fields = m
        if not O.COUNTER_INDEX then
            O.COUNTER_INDEX = {}
            for i, name in ipairs(O.COUNTERS) do O.COUNTER_INDEX[name] = i end
        end
        local c
        if v[7] then c = { struct.unpack(O.COUNTERS_FORMAT, v[7]) } else c = { unpack(O.COUNTER_DEFAULTS) } end
        O.c = c
        if O.next_timer == nil then
            local t = c[O.NEXT_TIMER]
            O.next_timer = t >= 0 and t
        end
    end
    return m
end

O.settings = O.meta

function O.counter(field)
    if not O.c then O.meta() end
    return O.c[O.COUNTER_INDEX[field]]
end

function O.count(field, delta)
    if not O.c then O.meta() end
    local i = O.COUNTER_INDEX[field]
    local value = O.c[i] + delta
    O.c[i] = value
    O.counters_changed = true
    return value
end

function O.next_counter(field) return O.count(field, 1) end

function O.set_counter(field, value)
    if not O.c then O.meta() end
    O.c[O.COUNTER_INDEX[field]] = value
    O.counters_changed = true
end

-- The earliest time something may fall due (a delayed task, an ordered head, a block's end) is kept
-- as `nextTimer`, never later than the truth: a consume before it has nothing time-driven to do.
-- An earlier time wakes a blocked consumer (finish), since its nap may end after it.
function O.note_timer(t)
    O.meta()
    if not O.next_timer or t < O.next_timer then
        O.next_timer, O.next_timer_changed = t, true
        O.new_due_time = true
    end
end

function O.save_counters()
    if O.next_timer_changed then O.set_counter('nextTimer', O.next_timer or -1) end
    if O.counters_changed then
        O.call('HSET', O.K_META, 'counters', struct.pack(O.COUNTERS_FORMAT, unpack(O.c, 1, O.COUNTER_COUNT)))
    end
    O.counters_changed, O.next_timer_changed = false, false
end

-- ---------------------------------------------------------------- the task record
-- flags(1) seq(6) publishedAt(6) [priority+1000(2)] [attempts(2)] [dueAt(6)] [readyAt(6)]
-- [lastError: len(2) bytes] [dead: deadAt(6)]
-- tail: code len(2) bytes, header count(1) headers, payload. The tail never changes after publish.
-- A consume does not rewrite the record: while a task is in flight its record keeps the attempts of
-- the deliveries before this one, and the lease lives in the holder's `f:` hash.

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
    if r.state == O.STATE_DEAD then
        r.at, pos = struct.unpack('>I6', s, pos)
    end
    r.tail = string.sub(s, pos)
    r.code = O.tail_code(r.tail)
    return r
end

-- A record's readyAt, read without decoding the rest: where its dueAt and readyAt are for each value of
-- flags (0 when absent), worked out once (bit.band is a C call: four per record cost more than the read).
O.TIME_AT = {}
for flags = 0, 255 do
    local pos = 14
    if flags % 8 >= 4 then pos = pos + 2 end -- FLAG_PRIORITY
    if flags % 16 >= 8 then pos = pos + 2 end -- FLAG_ATTEMPTS
    local due = 0
    if flags % 32 >= 16 then -- FLAG_DUE
        due = pos
        pos = pos + 6
    end
    O.TIME_AT[flags] = { due, flags % 64 >= 32 and pos or 0 } -- FLAG_READY
end

function O.record_ready(s)
    local flags, published = struct.unpack('>BxxxxxxI6', s)
    local at = O.TIME_AT[flags]
    if at[2] > 0 then return (struct.unpack('>I6', s, at[2])) end
    if at[1] > 0 then return (struct.unpack('>I6', s, at[1])) end
    return published
end

-- Writes a waiting or dead record (an in-flight task is stored as waiting: see above).
function O.encode(r)
    local state = r.state == O.STATE_DEAD and O.STATE_DEAD or O.STATE_WAITING
    local flags = state
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
    if state == O.STATE_DEAD then
        parts[#parts + 1] = struct.pack('>I6', r.at)
    end
    parts[1] = struct.pack('>BI6I6', flags, r.seq, r.published)
    parts[#parts + 1] = r.tail
    return table.concat(parts)
end

-- A script that writes many records (publish) sets O.unsaved to a table: they are then kept here and
-- written with one HSET by finish(); load() reads them from here meanwhile.
function O.load(id)
    local s = O.unsaved and O.unsaved[id] or O.call('HGET', O.K_TASKS, id)
    if not s then return nil end
    return O.decode(s)
end

function O.save_record(id, s)
    if O.unsaved then
        if not O.unsaved[id] then O.unsaved_order[#O.unsaved_order + 1] = id end
        O.unsaved[id] = s
    else
        O.call('HSET', O.K_TASKS, id, s)
    end
end

function O.save(id, r) O.save_record(id, O.encode(r)) end

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

-- ---------------------------------------------------------------- leases
-- A consumer's `f:` hash holds, per task it holds, its lease: when it was leased, as a decimal; for a
-- task of an ordered partition 'o', leasedAt(6) code: len(2) bytes, then the task's partition member,
-- so an ack finds what it must change in the partition without reading the record.

function O.regular_lease() return O.int(O.NOW) end

function O.ordered_lease(code, m)
    return 'o' .. struct.pack('>I6I2', O.NOW, #code) .. code .. m
end

function O.lease_time(lease)
    if string.byte(lease, 1) == O.ORDERED_LEASE then return (struct.unpack('>I6', lease, 2)) end
    return tonumber(lease)
end

-- The partition code and member an ordered task's lease names.
function O.lease_place(lease)
    local n = struct.unpack('>I2', lease, 8)
    return string.sub(lease, 10, 9 + n), string.sub(lease, 10 + n)
end

-- The record as the task is now: in flight, held by the consumer since the lease, this delivery counted.
function O.as_held(r, consumer, lease)
    r.state, r.holder, r.at = O.STATE_IN_FLIGHT, consumer, O.lease_time(lease)
    r.attempts = r.attempts + 1
    return r
end

-- The in-flight view of a task the consumer holds, or nil when it does not hold it.
function O.load_held(consumer, id)
    local lease = O.call('HGET', O.holding_key(consumer), id)
    if not lease then return nil end
    local r = O.load(id)
    return r and O.as_held(r, consumer, lease)
end

-- Who holds each of the ids (a waiting record says nothing of a lease): consumer name -> lease per id.
-- Reads every registered consumer's leases of these ids: for operators' calls (get, cancel).
function O.holders(ids)
    local found = {}
    if #ids == 0 then return found end
    for _, consumer in ipairs(O.call('ZRANGE', O.K_CONSUMERS, 0, -1)) do
        local leases = O.call('HMGET', O.holding_key(consumer), unpack(ids))
        for i, lease in ipairs(leases) do
            if lease then found[ids[i]] = { consumer, lease } end
        end
    end
    return found
end
