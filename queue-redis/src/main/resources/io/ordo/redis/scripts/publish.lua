#!lua
-- Publishes a batch: every task is checked before anything is written. New tasks get the next seq
-- and join their partitions; an id that exists (or was acked inside the dedup window) is a duplicate.
-- Reply: {0, outcome per task (1 created, 0 duplicate)} or {1, index, payload size, limit} when a
-- payload is over the queue's limit.
local clock = ARGV[1]
local FIRST_TASK = 2 -- then per task: id, blob = priority+1000 (2) delayMs (6) payloadBytes (4) tail
-- (a delay field at or above O.RUN_AT_MARK is that mark plus the epoch ms the task runs at)
local TAIL = 13 -- where the tail starts in a blob: code length (2), code, headers, payload

local NOW = start(clock)
-- The delay from NOW a blob's delay field means: as is, or up to its instant to run at (0 once it has passed).
local function delay_of(field)
    if field >= O.RUN_AT_MARK then return math.max(0, field - O.RUN_AT_MARK - NOW) end
    return field
end
local limit = settings().max_payload
for i = FIRST_TASK, #ARGV, 2 do
    local size = struct.unpack('>I4', ARGV[i + 1], 9)
    if size > limit then
        return { 1, (i - FIRST_TASK) / 2, size, limit }
    end
end
O.verify_fixed(O.PUBLISH_SKIPS)
-- A task publish_ready will append (the test it makes, run ahead) writes only its partition's list; any
-- other may write its partition's sorted sets too. The list counters are moved as if every task were
-- listed, which can only make the test fail more often than it will: a task is never under-probed.
local lowest, latest, no_stale = counter('lowestListed'), counter('latestListed'), counter('stale') == 0
for i = FIRST_TASK, #ARGV, 2 do
    local priority, delay, code_length = struct.unpack('>HI6xxxxI2', ARGV[i + 1])
    priority, delay = priority - 1000, delay_of(delay)
    local code = string.sub(ARGV[i + 1], TAIL + 2, TAIL + 1 + code_length)
    O.verify_partition(code, delay == 0 and no_stale and not is_ordered(code) and priority <= lowest
        and NOW >= latest)
    lowest, latest = math.min(lowest, priority), math.max(latest, NOW + delay)
end

-- The ids that name a task already, read with one HMGET per thousand; the records written at the end.
local exists = {}
local ids = {}
for i = FIRST_TASK, #ARGV, 2 do ids[#ids + 1] = ARGV[i] end
for first = 1, #ids, 1000 do
    local last = math.min(first + 999, #ids)
    local records = call('HMGET', K_TASKS, unpack(ids, first, last))
    for j = first, last do
        if records[j - first + 1] then exists[ids[j]] = true end
    end
end
O.unsaved, O.unsaved_order = {}, {}

local remembers_acks = call('EXISTS', K_ACKED) == 1
local function is_duplicate(id)
    if exists[id] then return true end
    if not remembers_acks then return false end
    local free_at = call('ZSCORE', K_ACKED, id)
    if not free_at then return false end
    if tonumber(free_at) > NOW then return true end
    call('ZREM', K_ACKED, id)
    return false
end

-- The usual task (regular partition, no delay, no cancelled member anywhere): a record built as is and a
-- list append; a partition that did not exist enters `ready` (or `turns`, when blocked) at once.
local ready_now = 0 -- tasks publish_ready made waiting, ready at NOW: counted once at the end
local function publish_ready(id, seq, priority, blob, code)
    local head
    if priority ~= 0 then
        head = struct.pack('>BI6I6H', FLAG_PRIORITY, seq, NOW, priority + 1000)
    else
        head = struct.pack('>BI6I6', 0, seq, NOW)
    end
    save_record(id, head .. string.sub(blob, TAIL))
    ready_now = ready_now + 1
    local m = struct.pack('>I7I6', (1000 - priority) * PRIORITY_SPAN + NOW, seq) .. id
    local key = run_key(code)
    if priority <= counter('lowestListed') and NOW >= counter('latestListed') then
        -- sorts after every list member there is: appended, and the list's length tells whether it was empty
        O.note_listed(priority, NOW)
        if call('RPUSH', key, m) > 1 then
            O.tails[code], O.fronts[code] = m, nil
            return -- behind a live member: its head stays as it is
        end
        O.tails[code], O.fronts[code], O.heads[code] = m, nil, nil
        if parked(code) > 0 then -- it existed with parked tasks only: its head may change
            touch(code)
            return
        end
    else
        local last = O.tails[code]
        if last == nil then last = call('LINDEX', key, '-1') end
        if last or parked(code) > 0 then -- it exists: the list or the sorted set, and its head may change
            if not part_insert(code, m) then touch(code) end
            return
        end
        call('RPUSH', key, m)
        O.tails[code], O.fronts[code], O.heads[code] = m, nil, nil
        O.listed(m)
    end
    -- a new partition: into `ready` at once (or `turns` while blocked)
    local turn = next_counter('turn')
    if is_blocked(code) then
        call('HSET', K_TURNS, code, int(turn))
    elseif O.limits() then -- it may be at its cap or out of tokens: refresh decides (limits.lua)
        call('HSET', K_TURNS, code, int(turn))
        touch(code)
    else
        call('ZADD', K_READY, int((1000 - priority) * PRIORITY_SPAN + turn), code)
    end
end

local reply = { 0 }
local created = 0
for i = FIRST_TASK, #ARGV, 2 do
    local id, blob = ARGV[i], ARGV[i + 1]
    if is_duplicate(id) then
        reply[#reply + 1] = 0
    else
        local priority, delay, code_length = struct.unpack('>HI6xxxxI2', blob)
        priority, delay = priority - 1000, delay_of(delay)
        local code = string.sub(blob, TAIL + 2, TAIL + 1 + code_length)
        local seq = next_counter('seq')
        if delay == 0 and not is_ordered(code) and counter('stale') == 0 then
            publish_ready(id, seq, priority, blob, code)
        else
            put_waiting(id, {
                seq = seq, published = NOW, priority = priority, attempts = 0,
                due = NOW + delay, ready = NOW + delay, tail = string.sub(blob, TAIL), code = code,
            })
        end
        exists[id] = true -- the same id again in this batch is a duplicate
        created = created + 1
        reply[#reply + 1] = 1
    end
end
if created > 0 then count('publishedTotal', created) end
if ready_now > 0 then
    count('waiting', ready_now)
    O.readyat_change(NOW, ready_now)
end
finish()
return reply
