-- The task record and the leases. Part of the library after counters.lua.

-- A task's state and the flags of its record's optional fields: O.STATE_* and O.FLAG_*, Java's (LuaConstants).
local STATE_WAITING = O.STATE_WAITING
local STATE_COMPLETED = O.STATE_COMPLETED
local FLAG_ERROR = O.FLAG_ERROR
local FLAG_READY = O.FLAG_READY
local FLAG_DUE = O.FLAG_DUE
local FLAG_ATTEMPTS = O.FLAG_ATTEMPTS
local FLAG_PRIORITY = O.FLAG_PRIORITY

-- ---------------------------------------------------------------- the task record
-- flags(1) seq(6) publishedAt(6) [priority+1000(2)] [attempts(2)] [dueAt(6)] [readyAt(6)]
-- [lastError: len(2) bytes] [reclaim cause(1): the last error came from reclaim] [dead: deadAt(6)]
-- tail: code len(2) bytes, header count(1) headers, [extras], payload. The tail never changes after publish.
-- A header count with O.HEADERS_EXTENDED added says extras follow the headers: flags(1) [type: len(2)
-- bytes] [maxAttempts(2)] [retry policy(28)] (TaskRecords); a task with none has no extras.
-- A consume does not rewrite the record: while a task is in flight its record keeps the attempts of
-- the deliveries before this one, and the lease lives in the holder's `f:` hash.

function O.tail_code(tail)
    local n = struct.unpack('>I2', tail)
    return string.sub(tail, 3, 2 + n)
end

-- The flags of a task's extras and where they start, from its header count at `pos` in s (a record's tail, a
-- record or a publish blob), or nil when it has none: a task without extras costs one byte read.
function O.extras_at(s, pos)
    local count = string.byte(s, pos)
    if count < O.HEADERS_EXTENDED then return nil end
    pos = pos + 1
    for _ = 1, 2 * (count - O.HEADERS_EXTENDED) do -- names and values
        pos = pos + 2 + struct.unpack('>I2', s, pos)
    end
    return string.byte(s, pos), pos + 1
end

-- The task's own attempts limit (record decoded), or `default` (the queue's) when it has none.
function O.max_attempts(r, default)
    local extras, pos = O.extras_at(r.tail, 3 + #r.code)
    if not extras or extras % (2 * O.EXTRA_MAX_ATTEMPTS) < O.EXTRA_MAX_ATTEMPTS then return default end
    if extras % (2 * O.EXTRA_TYPE) >= O.EXTRA_TYPE then
        pos = pos + 2 + struct.unpack('>I2', r.tail, pos)
    end
    return (struct.unpack('>H', r.tail, pos))
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
    if O.has(flags, O.FLAG_RECLAIMED) then r.cause, pos = struct.unpack('>B', s, pos) end
    if r.state == O.STATE_DEAD or r.state == O.STATE_COMPLETED then -- when it died, or completed
        r.at, pos = struct.unpack('>I6', s, pos)
    end
    r.tail = string.sub(s, pos)
    r.code = O.tail_code(r.tail)
    return r
end

-- Where a record's fields are for each value of flags, worked out once (bit.band is a C call: four per
-- record cost more than the read): {dueAt's position, readyAt's, priority's (0 when absent), where the
-- fields after readyAt begin, whether a lastError follows, the bytes of the fields between it and the tail}.
O.LAYOUT = {}
for flags = 0, 255 do
    local pos = 14
    local priority = 0
    if flags % 8 >= 4 then -- FLAG_PRIORITY
        priority = pos
        pos = pos + 2
    end
    if flags % 16 >= 8 then pos = pos + 2 end -- FLAG_ATTEMPTS
    local due = 0
    if flags % 32 >= 16 then -- FLAG_DUE
        due = pos
        pos = pos + 6
    end
    local ready = 0
    if flags % 64 >= 32 then -- FLAG_READY
        ready = pos
        pos = pos + 6
    end
    local after_error = (flags >= 128 and 1 or 0) + (flags % 4 >= O.STATE_DEAD and 6 or 0) -- FLAG_RECLAIMED, deadAt or completedAt
    O.LAYOUT[flags] = { due, ready, priority, pos, flags % 128 >= 64, after_error } -- FLAG_ERROR
end

-- The task's own processing timeout in ms from its header count at `pos` in s, or nil.
function O.extras_timeout(s, pos)
    local extras
    extras, pos = O.extras_at(s, pos)
    if not extras or extras % (2 * O.EXTRA_TIMEOUT) < O.EXTRA_TIMEOUT then return nil end
    if extras % (2 * O.EXTRA_TYPE) >= O.EXTRA_TYPE then pos = pos + 2 + struct.unpack('>I2', s, pos) end
    if extras % (2 * O.EXTRA_MAX_ATTEMPTS) >= O.EXTRA_MAX_ATTEMPTS then pos = pos + 2 end
    if extras % (2 * O.EXTRA_RETRY_POLICY) >= O.EXTRA_RETRY_POLICY then pos = pos + 28 end
    return (struct.unpack('>I6', s, pos))
end

-- The task's own processing timeout in ms (record s), or nil.
function O.record_timeout(s)
    local layout = O.LAYOUT[string.byte(s, 1)]
    local pos = layout[4]
    if layout[5] then pos = pos + 2 + struct.unpack('>I2', s, pos) end
    pos = pos + layout[6]
    return O.extras_timeout(s, pos + 2 + struct.unpack('>I2', s, pos))
end

-- A record's readyAt, read without decoding the rest.
function O.record_ready(s)
    local flags, published = struct.unpack('>BxxxxxxI6', s)
    local at = O.LAYOUT[flags]
    if at[2] > 0 then return (struct.unpack('>I6', s, at[2])) end
    if at[1] > 0 then return (struct.unpack('>I6', s, at[1])) end
    return published
end

-- A record's partition code and the task's member in it (O.member), read without decoding the rest: no
-- table and no copy of the payload, which decode() allocates for every task (the collector's work grows
-- with them).
function O.record_place(s, id)
    local flags, seq, published = struct.unpack('>BI6I6', s)
    local at = O.LAYOUT[flags]
    local priority = at[3] > 0 and struct.unpack('>H', s, at[3]) - 1000 or 0
    local due = at[1] > 0 and struct.unpack('>I6', s, at[1]) or published
    local pos = at[4]
    if at[5] then pos = pos + 2 + struct.unpack('>I2', s, pos) end
    pos = pos + at[6]
    local code = string.sub(s, pos + 2, pos + 1 + struct.unpack('>I2', s, pos))
    return code, struct.pack('>I7I6', (1000 - priority) * PRIORITY_SPAN + due, seq) .. id
end

-- A dead letter's deadAt, read without decoding the rest (no table, no copy of the payload).
function O.record_dead_at(s)
    local at = O.LAYOUT[string.byte(s, 1)]
    local pos = at[4]
    if at[5] then pos = pos + 2 + struct.unpack('>I2', s, pos) end
    return (struct.unpack('>I6', s, pos + at[6] - 6)) -- (deadAt is the last of the fields after lastError)
end

-- Writes a waiting or dead record (an in-flight task is stored as waiting: see above).
function O.encode(r)
    local state = (r.state == O.STATE_DEAD or r.state == O.STATE_COMPLETED) and r.state or O.STATE_WAITING
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
    if r.cause then
        flags = flags + O.FLAG_RECLAIMED
        parts[#parts + 1] = struct.pack('>B', r.cause)
    end
    if state ~= O.STATE_WAITING then
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
    if not s and O.K_SHARED then s = O.shared_records({ id }, { false })[1] end
    if not s then return nil end
    return O.decode(s)
end
local load = O.load

-- For a group: records[i] of each id without a record of the group's own, from the queue's shared
-- records while the group's bit is set (keys.lua); one HMGET.
function O.shared_records(ids, records)
    local missing, at = {}, {}
    for i = 1, #ids do
        if not records[i] then
            missing[#missing + 1] = ids[i]
            at[#at + 1] = i
        end
    end
    if #missing == 0 then return records end
    local b = O.meta().group_bit
    local shared = O.call('HMGET', O.K_SHARED, unpack(missing))
    for k, i in ipairs(at) do
        local s = shared[k]
        if s and bit.band(struct.unpack('>i4', s), b) ~= 0 then records[i] = string.sub(s, 5) end
    end
    return records
end

-- The stored records of ids, in their order (false for an id without one), with one HMGET (two for a
-- group, whose unchanged tasks are shared).
function O.load_records(ids)
    if #ids == 0 then return {} end
    local records = O.call('HMGET', O.K_TASKS, unpack(ids))
    local unsaved = O.unsaved
    if unsaved then
        for i, id in ipairs(ids) do records[i] = unsaved[id] or records[i] end
    end
    if O.K_SHARED then O.shared_records(ids, records) end
    return records
end

-- A group done with tasks (acked, cancelled, purged): its bit cleared from their shared records, and the
-- records whose last holder it was deleted. Acked ones (remember) are remembered in the queue's `acked`
-- for the group's dedup window, the longest of the groups' counting. Nothing for the queue's own view.
function O.release_shared(ids, remember)
    if not O.K_SHARED or #ids == 0 then return end
    local b = O.meta().group_bit
    local kept, gone, released = {}, {}, {}
    for from = 1, #ids, 1000 do
        local to = math.min(from + 999, #ids)
        local shared = O.call('HMGET', O.K_SHARED, unpack(ids, from, to))
        for i = from, to do
            local s = shared[i - from + 1]
            if s then
                local mask = struct.unpack('>i4', s)
                if bit.band(mask, b) ~= 0 then
                    released[#released + 1] = ids[i]
                    mask = bit.band(mask, bit.bnot(b))
                    if mask == 0 then
                        gone[#gone + 1] = ids[i]
                    else
                        kept[#kept + 1] = ids[i]
                        kept[#kept + 1] = struct.pack('>i4', mask) .. string.sub(s, 5)
                    end
                end
            end
        end
    end
    for from = 1, #kept, 2000 do O.call('HSET', O.K_SHARED, unpack(kept, from, math.min(from + 1999, #kept))) end
    for from = 1, #gone, 1000 do O.call('HDEL', O.K_SHARED, unpack(gone, from, math.min(from + 999, #gone))) end
    local window = remember and O.meta().dedup_window or 0
    if window > 0 and #released > 0 then
        local acked = string.sub(O.K_SHARED, 1, -7) .. 'acked'
        local args = {}
        for _, id in ipairs(released) do
            args[#args + 1] = O.int(O.NOW + window)
            args[#args + 1] = id
        end
        for from = 1, #args, 2000 do O.call('ZADD', acked, 'GT', unpack(args, from, math.min(from + 1999, #args))) end
    end
end

-- Deletes tasks' records (a group: its own, and its share of the shared ones).
function O.delete_records(ids, remember)
    for from = 1, #ids, 1000 do O.call('HDEL', O.K_TASKS, unpack(ids, from, math.min(from + 999, #ids))) end
    local unsaved = O.unsaved
    if unsaved then -- a record kept aside for finish() is not written after all
        for _, id in ipairs(ids) do
            if unsaved[id] then unsaved[id] = false end
        end
    end
    O.release_shared(ids, remember)
end

-- (A publish to groups keeps each new task's record once, shared: a group saves none of them.)
function O.save_record(id, s)
    if O.records_shared then return end
    if O.unsaved then
        if not O.unsaved[id] then O.unsaved_order[#O.unsaved_order + 1] = id end
        O.unsaved[id] = s
    else
        O.call('HSET', O.K_TASKS, id, s)
    end
end
local save_record = O.save_record

function O.save(id, r) O.save_record(id, O.encode(r)) end

function O.save_unsaved()
    if not O.unsaved or #O.unsaved_order == 0 then return end
    local args = {}
    for _, id in ipairs(O.unsaved_order) do
        if O.unsaved[id] then -- (false: deleted since it was kept aside)
            args[#args + 1] = id
            args[#args + 1] = O.unsaved[id]
        end
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
-- so an ack finds what it must change in the partition without reading the record. While the queue
-- counts tasks in flight (a cap is set), a regular task's lease is 'c', leasedAt(6), then the partition
-- code, so an ack finds the partition whose count it lowers without reading the record; a decimal lease
-- (taken while no cap was set) sends it to the record.

function O.regular_lease() return O.int(O.NOW) end

function O.ordered_lease(code, m)
    return 'o' .. struct.pack('>I6I2', O.NOW, #code) .. code .. m
end

O.COUNTED_LEASE = 99 -- 'c'
-- The start of every counted lease of this call: a counted lease is this, then the partition code.
function O.counted_lease_head() return 'c' .. struct.pack('>I6', O.NOW) end

function O.lease_has_place(lease)
    local mark = string.byte(lease, 1)
    return mark == O.ORDERED_LEASE or mark == O.COUNTED_LEASE
end

function O.lease_time(lease)
    if O.lease_has_place(lease) then return (struct.unpack('>I6', lease, 2)) end
    return tonumber(lease)
end
local lease_time = O.lease_time

-- The partition code an ordered or counted task's lease names, and (ordered) the task's member.
function O.lease_place(lease)
    if string.byte(lease, 1) == O.COUNTED_LEASE then return string.sub(lease, 8), '' end
    local n = struct.unpack('>I2', lease, 8)
    return string.sub(lease, 10, 9 + n), string.sub(lease, 10 + n)
end

-- The record as the task is now: in flight, held by the consumer since the lease, this delivery counted.
function O.as_held(r, consumer, lease)
    r.state, r.holder, r.at = O.STATE_IN_FLIGHT, consumer, O.lease_time(lease)
    r.attempts = r.attempts + 1
    return r
end
local as_held = O.as_held

-- The in-flight view of a task the consumer holds, or nil when it does not hold it.
function O.load_held(consumer, id)
    local lease = O.call('HGET', O.holding_key(consumer), id)
    if not lease then return nil end
    local r = O.load(id)
    return r and O.as_held(r, consumer, lease)
end
local load_held = O.load_held

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
local holders = O.holders
