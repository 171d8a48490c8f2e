-- The clock of a call, work in chunks, and the queue's settings and counters. Part of the library after
-- keys.lua.

-- Work in chunks (promotion of due tasks, redrive all, reclaim) also stops once a chunk has run this long
-- on the server, whatever its count: a loaded server does less per call, not longer calls. The chunks are
-- small because a call pays Lua's garbage collector in proportion to what it allocates, and a call that
-- falls in the collector's sweep pays several times more per byte (freeing the garbage of earlier calls):
-- the longest calls are those (docs/reliability.md, "Operations that could hold Redis").
O.CHUNK_MICROS = 1000
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
local start = O.start

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
-- deadLettersDroppedTotal: dead letters the caps deleted (O.drop_dead).
-- controlled: the tasks in flight with an entry in `control` (control.lua); while 0 no call reads it.
-- ownTimeouts: 1 once a task with its own processing timeout was published (a consume then looks for it).
-- eventSeq: the seq of the latest event the queue's log got (event_log.lua), 0 before the first.
-- A counter added later goes last: data written before it has a shorter value, read with the counters it has
-- and the defaults of the rest (O.unpack_counters).
O.COUNTERS = { 'seq', 'turn', 'waiting', 'rest', 'stale', 'parked', 'lowestListed', 'latestListed', 'highestListed',
    'ackedTotal', 'publishedTotal', 'deadLetteredTotal', 'deadSeq', 'nextTimer', 'deadLettersDroppedTotal',
    'controlled', 'ownTimeouts', 'eventSeq' }
O.COUNTERS_FORMAT = '>dddddddddddddddddd' -- one d per counter
O.COUNTER_DEFAULTS = { 0, 0, 0, 0, 0, 0, 1001, 0, -1001, 0, 0, 0, 0, -1, 0, 0, 0, 0 }
O.COUNTER_COUNT = 18
-- A call keeps the counters as an array in this order (O.c), unpacked and packed by one C call each:
-- a Lua loop over the names cost more than the rest of a short call.
-- Built at the first call: a library's top level has no ipairs.
O.COUNTER_INDEX = nil
O.NEXT_TIMER = 14

-- Defaults: QueueSettings.DEFAULTS, written into the library by LuaConstants.
function O.meta()
    local m = O.meta_fields
    if not m then
        local v = O.call('HMGET', O.K_META, 'maxAttempts', 'processingTimeoutMs', 'dedupWindowMs', 'heartbeatTtlMs',
            'maxPayloadBytes', 'paused', 'counters', 'limits', 'queueBucket', 'bit', 'deadLetterCaps', 'results')
        m = {
            max_attempts = tonumber(v[1]) or O.DEFAULT_MAX_ATTEMPTS,
            processing_timeout = tonumber(v[2]) or O.DEFAULT_PROCESSING_TIMEOUT_MS,
            dedup_window = tonumber(v[3]) or O.DEFAULT_DEDUP_WINDOW_MS,
            heartbeat_ttl = tonumber(v[4]) or O.DEFAULT_HEARTBEAT_TTL_MS,
            max_payload = tonumber(v[5]) or O.DEFAULT_MAX_PAYLOAD_BYTES,
            paused = v[6] ~= false,
            limits = O.decode_limits(v[8]), -- caps and rate limits (limits.lua); nil: none
            queue_bucket = v[9] or nil, -- the queue rate limit's bucket (limits.lua); nil: full
            group_bit = v[10] and bit.lshift(1, tonumber(v[10])) or 0, -- a group's bit in shared masks (keys.lua)
            dead_caps_text = v[11] or nil, -- 'count:ageMs' (O.dead_caps); nil: none
            results_text = v[12] or nil, -- 'retentionMs:maxBytes:eventLogLength' (O.results); nil: the defaults
        }
        O.meta_fields = m
        if not O.COUNTER_INDEX then
            O.COUNTER_INDEX = {}
            for i, name in ipairs(O.COUNTERS) do O.COUNTER_INDEX[name] = i end
        end
        local c
        if v[7] then c = O.unpack_counters(v[7]) else c = { unpack(O.COUNTER_DEFAULTS) } end
        O.c = c
        if O.next_timer == nil then
            local t = c[O.NEXT_TIMER]
            O.next_timer = t >= 0 and t
        end
    end
    return m
end

-- Counters written before the last ones existed are shorter: those take their defaults.
function O.unpack_counters(packed)
    local n = #packed / 8
    if n == O.COUNTER_COUNT then return { struct.unpack(O.COUNTERS_FORMAT, packed) } end
    local c = { struct.unpack('>' .. string.rep('d', n), packed) }
    c[n + 1] = nil -- (struct.unpack's next position)
    for i = n + 1, O.COUNTER_COUNT do c[i] = O.COUNTER_DEFAULTS[i] end
    return c
end

O.settings = O.meta
local settings = O.settings

-- The caps on the dead letters, {count = 0 for none, age = ms, 0 for none}, or nil without caps.
function O.dead_caps()
    local m = O.meta()
    if m.dead_caps == nil then
        local count, age = string.match(m.dead_caps_text or '', '^(%d+):(%d+)$')
        m.dead_caps = count and { count = tonumber(count), age = tonumber(age) } or false
    end
    return m.dead_caps or nil
end

-- The results the queue keeps (docs/task-control.md, "Results") and the length of its event log ("Event log"):
-- {retention = ms (0: none), max_bytes, events = the most events kept (0: no log)}. One meta field holds both,
-- so a queue with neither pays for no extra read. (Written before the log existed, the field has no length.)
O.NO_RESULTS = nil -- { retention = 0, max_bytes = the default, events = 0 }, made at the first call (LuaConstants come later)
function O.results()
    local m = O.meta()
    local results = m.results
    if results then return results end
    if not m.results_text then -- the usual case: one table for every call
        results = O.NO_RESULTS or { retention = 0, max_bytes = O.DEFAULT_MAX_RESULT_BYTES, events = 0 }
        O.NO_RESULTS = results
    else
        local retention, max_bytes, events = string.match(m.results_text, '^(%d+):(%d+):?(%d*)$')
        results = { retention = tonumber(retention) or 0, max_bytes = tonumber(max_bytes) or O.DEFAULT_MAX_RESULT_BYTES,
            events = tonumber(events) or 0 }
    end
    m.results = results
    return results
end

function O.counter(field)
    if not O.c then O.meta() end
    return O.c[O.COUNTER_INDEX[field]]
end
local counter = O.counter

function O.count(field, delta)
    if not O.c then O.meta() end
    local i = O.COUNTER_INDEX[field]
    local value = O.c[i] + delta
    O.c[i] = value
    O.counters_changed = true
    return value
end
local count = O.count

function O.next_counter(field) return O.count(field, 1) end
local next_counter = O.next_counter

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
local note_timer = O.note_timer

function O.save_counters()
    if O.next_timer_changed then O.set_counter('nextTimer', O.next_timer or -1) end
    if O.counters_changed then
        O.call('HSET', O.K_META, 'counters', struct.pack(O.COUNTERS_FORMAT, unpack(O.c, 1, O.COUNTER_COUNT)))
    end
    O.counters_changed, O.next_timer_changed = false, false
end
