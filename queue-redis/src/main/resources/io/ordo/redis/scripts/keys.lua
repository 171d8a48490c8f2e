-- Shared by every Ordo function: the top of the one Redis Functions library (see RedisLibrary), loaded
-- once per server: the queue's keys, the names in them, and the checks of their types. The library's
-- files, in order: keys.lua, counters.lua, record.lua, partition_index.lua, lifecycle.lua, finishing.lua,
-- control.lua, results.lua, event_log.lua, limits.lua;
-- the rules they implement are those of docs/semantics.md, the key layout and the record format are
-- explained in docs/redis-design.md. Each function's short name for the function bodies (`local x = O.x`)
-- follows its definition.

-- Everything lives in one table: closures that capture a single table are made far faster than
-- closures capturing dozens of locals. RedisLibrary puts the constants Lua shares with Java right after
-- this file (LuaConstants): the record's states and flags, the reclaim causes, the settings' defaults.
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
    'inflight',      -- hash: partition code -> its tasks in flight, '' -> the queue's (while a cap is set)
    'buckets',       -- hash: the partitions' buckets before 2026-12-02 (now in `inflight`), deleted when limits change
    'throttled',     -- zset: partitions out of tokens, by when their next token comes
    'completed',     -- zset: completed tasks kept with their results, by when they may go (results.lua)
    'results',       -- hash: task id -> the result a completed task keeps, when not empty
    'control',       -- hash: task id -> its holder and last progress, for tasks in flight said more of (control.lua)
    'cancels',       -- hash: task id -> its holder, for tasks in flight whose cancellation was asked
    'deadlines',     -- zset: tasks in flight with a deadline of their own (own timeout, extension), by it
    'events',        -- list: the queue's event log, oldest first, while it keeps one (event_log.lua)
}

O.PRIORITY_SPAN = 4398046511104 -- 2^42: times and turns stay below it, so scores stay exact
local PRIORITY_SPAN = O.PRIORITY_SPAN
O.ORDERED_MARK = 33             -- '!'
O.ORDERED_LEASE = 111           -- 'o': a lease value of a task of an ordered partition starts with it

-- The keys of the queues this server's library has served, by meta key (bounded: a server may hold
-- many queues, and the library's memory lives as long as the server).
O.key_sets, O.key_set_count = {}, 0

-- Called first by every function: binds the queue's keys and forgets what the previous call learnt.
-- Returns the fixed keys in O.KINDS order. The keys of a consumer group are those of a queue under the
-- group's prefix (O.group_prefix); a call on a group that does not exist fails before it reads anything
-- else, unless it is one of the groups' own administration (deleting), which passes any_group.
function O.begin(keys, any_group)
    local meta = keys[1]
    local set = O.key_sets[meta]
    if not set then
        if O.key_set_count >= 1000 then O.key_sets, O.key_set_count = {}, 0 end
        local prefix = string.sub(meta, 1, -5)
        local mark = string.find(prefix, O.GROUP_MARK, 1, true)
        set = { prefix = prefix, group = mark ~= nil }
        -- a group's tasks it has not changed since they were published are the queue's shared records
        if mark then set.shared = string.sub(prefix, 1, mark + 1) .. 'shared' end
        for i, kind in ipairs(O.KINDS) do set[i] = prefix .. kind end
        O.key_sets[meta], O.key_set_count = set, O.key_set_count + 1
    end
    if set.group and not any_group and O.call('HEXISTS', meta, 'group') == 0 then
        error({ err = 'ORDO_NO_GROUP no such consumer group (' .. meta .. ')' })
    end
    O.PREFIX = set.prefix
    O.K_META, O.K_TASKS, O.K_READY, O.K_DELAYED, O.K_WAKE, O.K_BLOCKED, O.K_TURNS, O.K_PARKED, O.K_STALE,
        O.K_LOCKS, O.K_CONSUMERS, O.K_DEAD, O.K_ACKED, O.K_READYAT, O.K_READYAT_N, O.K_SIGNAL,
        O.K_HEARTBEATS, O.K_LOCK_SINCE, O.K_INFLIGHT, O.K_BUCKETS, O.K_THROTTLED, O.K_COMPLETED, O.K_RESULTS,
        O.K_CONTROL, O.K_CANCELS, O.K_DEADLINES, O.K_EVENTS = unpack(set)
    O.K_SHARED = set.shared
    O.records_shared = false
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
    O.limit_gate, O.take_front = nil, nil
    O.oldest_dead_kept = false
    O.pending_events = nil
    return set
end

-- ---------------------------------------------------------------- consumer groups
-- (docs/groups.md) A group's keys are a queue's kinds under `<the queue's prefix>g=<name>:` (names are
-- letters, digits and `. _ -`, so they cannot spell a partition's or a consumer's key, which follow other
-- kinds). The queue's meta lists its groups in its field `groups`, by name, joined by ','; a group's
-- meta holds the field `group` while the group exists.
O.GROUP_MARK = '}:g='
function O.group_prefix(name) return O.PREFIX .. 'g=' .. name .. ':' end

--
-- A task published to a queue with groups is stored once, in the queue's hash `shared`: its record as a
-- task's record is (record.lua) after the mask of the groups that hold it (4 bytes, one bit per group, the
-- group's `bit` in its meta). A group keeps a record of its own in its `tasks` only once it changed the
-- task (a give-back, a dead letter); until then it reads the shared one, while its bit is set. A group done
-- with a task (ack, cancel, purge) clears its bit, and the last one deletes the shared record.
-- The queue's meta lists each group as name:bit.

-- The queue's groups, by name: {name, bit} each (O.PREFIX: the queue's own keys).
function O.groups()
    local groups = {}
    local listed = O.call('HGET', O.K_META, 'groups')
    if listed then
        for name, b in string.gmatch(listed, '([^,:]+):(%d+)') do groups[#groups + 1] = { name, tonumber(b) } end
    end
    return groups
end

function O.group_names()
    local names = {}
    for i, g in ipairs(O.groups()) do names[i] = g[1] end
    return names
end

-- Writes the queue's list of groups into its meta (queue_meta).
function O.list_groups(groups, queue_meta)
    local parts = {}
    for i, g in ipairs(groups) do parts[i] = g[1] .. ':' .. g[2] end
    if #parts > 0 then O.call('HSET', queue_meta, 'groups', table.concat(parts, ','))
    else O.call('HDEL', queue_meta, 'groups') end
end

-- The meta keys of the views a publish delivers to: the queue's own, or each of its groups; and the mask
-- of those groups' bits (0 without groups).
function O.publish_targets()
    local groups = O.groups()
    if #groups == 0 then return { O.K_META }, 0 end
    local targets, mask = {}, 0
    for i, g in ipairs(groups) do
        targets[i] = O.group_prefix(g[1]) .. 'meta'
        mask = bit.bor(mask, bit.lshift(1, g[2]))
    end
    return targets, mask
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
    ['lock-since'] = 'hash', inflight = 'hash', buckets = 'hash', throttled = 'zset', completed = 'zset',
    results = 'hash', control = 'hash', cancels = 'hash', deadlines = 'zset', events = 'list',
}
-- The keys of task control (control.lua): touched only while a task in flight is controlled, or a consume
-- may give one its own deadline, and probed only then; a call that makes the first entry probes them itself.
O.CONTROL_KIND_COUNT = 3 -- control, cancels, deadlines: the last of O.KINDS but the event log's
-- The keys of results kept (results.lua), before those of task control: touched only while the queue keeps
-- results, and probed only then; the calls that work on completed tasks whatever the setting probe them
-- themselves (expire, cancel).
O.RESULT_KIND_COUNT = 2
-- The event log's key (event_log.lua), the last of O.KINDS: touched and probed only while the queue keeps a log.
O.EVENT_KIND_COUNT = 1
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
-- reads before its first write (a read fails on a key of the wrong type as a probe does). The keys of caps
-- and rate limits only while the queue has the limit that uses them (no call touches them otherwise).
function O.verify_fixed(skip)
    local set = O.key_sets[O.K_META]
    local limits = O.limits()
    local kinds = O.KINDS
    -- the kinds of results, then those of task control, then the event log's, are the last ones
    for i = 1, #kinds - O.CONTROL_KIND_COUNT - O.RESULT_KIND_COUNT - O.EVENT_KIND_COUNT do
        local kind = kinds[i]
        local used_by = O.LIMIT_KINDS[kind]
        if not (skip and skip[kind]) and (not used_by or limits and limits[used_by]) then
            O.verify(set[i], O.KIND_TYPES[kind])
        end
    end
    local results = O.results()
    if results.retention > 0 then O.verify_results() end
    if results.events > 0 then O.verify(O.K_EVENTS, 'list') end
    if O.controlled() or O.counter('ownTimeouts') > 0 then O.verify_control() end
end

-- The keys of results kept, before a call writes or deletes in them.
function O.verify_results()
    O.verify(O.K_COMPLETED, 'zset')
    O.verify(O.K_RESULTS, 'hash')
end

-- The keys of task control, before a call writes the first entry.
function O.verify_control()
    O.verify(O.K_CONTROL, 'hash')
    O.verify(O.K_CANCELS, 'hash')
    O.verify(O.K_DEADLINES, 'zset')
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
local call = O.call

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
local run_key = O.run_key
function O.rest_key(code) return O.PREFIX .. 'pz' .. O.name_part(code) end     -- zset: all other waiting tasks
local rest_key = O.rest_key
function O.flight_key(code) return O.PREFIX .. 'pf' .. O.name_part(code) end   -- zset: held tasks of an ordered partition
local flight_key = O.flight_key
function O.holding_key(name) return O.PREFIX .. 'f' .. O.name_part(name) end   -- hash: task id -> lease, per consumer
local holding_key = O.holding_key

function O.is_ordered(code) return string.byte(code, 1) == O.ORDERED_MARK end
local is_ordered = O.is_ordered

function O.has(flags, flag) return bit.band(flags, flag) ~= 0 end
local has = O.has

-- An integer as its decimal text. Numbers handed to redis.call as they are go through "%.17g", which costs
-- several times what '%d' does: the hot paths hand over text.
function O.int(n) return string.format('%d', n) end
local int = O.int


-- Binary-safe "a before b" for names, in Java's String order (UTF-16 units): a 4-byte UTF-8 sequence
-- (a surrogate pair in Java) sorts as if it stood between U+D7FF and U+E000.
function O.java_order_key(s)
    return (string.gsub(s, '[\240-\244][\128-\191][\128-\191][\128-\191]', function(c) return '\237\192' .. c end))
end
local java_order_key = O.java_order_key

function O.bytes_before(a, b)
    local n = math.min(#a, #b)
    for i = 1, n do
        local x, y = string.byte(a, i), string.byte(b, i)
        if x ~= y then return x < y end
    end
    return #a < #b
end
local bytes_before = O.bytes_before
