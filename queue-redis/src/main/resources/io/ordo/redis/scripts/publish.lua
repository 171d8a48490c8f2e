#!lua
-- Publishes a batch: every task is checked before anything is written. New tasks get the next seq
-- and join their partitions; an id that exists (or was acked inside the dedup window) is a duplicate.
-- A queue with consumer groups (docs/groups.md) delivers the batch to each of its groups instead of its
-- own view, in the same step: the checks are made for every group (and the queue's own view, whose ids
-- count for duplicates too) before the first write, then the tasks are written group by group, with the
-- queue's seq (counted in its own meta) in every group.
-- Reply: {0, outcome per task (1 created, 0 duplicate)} or {1, index, payload size, limit} when a
-- payload is over the queue's limit.
local clock = ARGV[1]
local FIRST_TASK = 2 -- then per task: id, blob = priority+1000 (2) delayMs (6) payloadBytes (4) tail
-- (a delay field at or above O.RUN_AT_MARK is that mark plus the epoch ms the task runs at; a priority
-- field at or above O.OWN_TIMEOUT_MARK is that mark plus the priority, for a task with its own timeout)
local TAIL = 13 -- where the tail starts in a blob: code length (2), code, headers, payload
local ORDERED_MARK = O.ORDERED_MARK

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
local queue_meta = K_META
local shared_key = O.PREFIX .. 'shared'
-- the views the batch goes to: the queue's own, or each of its groups (and the mask of their bits)
local targets, mask = O.publish_targets()
local grouped = mask ~= 0
local function bind(meta)
    K_META, K_TASKS, K_READY, K_DELAYED, K_WAKE, K_BLOCKED, K_TURNS, K_PARKED, K_STALE, K_LOCKS, K_CONSUMERS,
        K_DEAD, K_ACKED, K_READYAT, K_READYAT_N, K_SIGNAL, K_HEARTBEATS, K_LOCK_SINCE, K_INFLIGHT, K_BUCKETS,
        K_THROTTLED, K_COMPLETED, K_RESULTS, K_CONTROL, K_CANCELS, K_DEADLINES = unpack(O.begin({ meta }))
end

-- Each task's priority, delay and partition, read from its blob once for every view; and whether a task has
-- a processing timeout of its own (its priority field marked): a consume then looks for it (counter ownTimeouts).
local PRIORITY, DELAY, CODE = {}, {}, {}
local OWN_TIMEOUT_MARK = O.OWN_TIMEOUT_MARK
local own_timeouts = false
for i = FIRST_TASK, #ARGV, 2 do
    local priority, delay, code_length = struct.unpack('>HI6xxxxI2', ARGV[i + 1])
    if priority >= OWN_TIMEOUT_MARK then
        own_timeouts, priority = true, priority - OWN_TIMEOUT_MARK
    end
    PRIORITY[i], DELAY[i] = priority - 1000, delay_of(delay)
    CODE[i] = string.sub(ARGV[i + 1], TAIL + 2, TAIL + 1 + code_length)
end

-- Every view's keys are checked before the first write. A group's records are not (a publish writes none).
-- A group to which every task of the batch is an append to its partition's list (all_appends[t]) is not
-- probed task by task: its appends are the call's first writes, undone should one meet a key of the wrong
-- type (see below), and its other keys are probed as the appends require.
local all_appends = {}
for t, meta in ipairs(targets) do
    if grouped then bind(meta) end
    -- A task publish_ready will append (the test it makes, run ahead) writes only its partition's list; any
    -- other may write its partition's sorted sets too. The list counters are moved as if every task were
    -- listed, which can only make the test fail more often than it will: a task is never under-probed.
    local lowest, latest, no_stale = counter('lowestListed'), counter('latestListed'), counter('stale') == 0
    local appends = grouped and no_stale
    if appends then
        for i = FIRST_TASK, #ARGV, 2 do
            local priority, delay, code = PRIORITY[i], DELAY[i], CODE[i]
            if not (delay == 0 and priority <= lowest and NOW >= latest and string.byte(code, 1) ~= ORDERED_MARK) then
                appends = false
                break
            end
            if priority < lowest then lowest = priority end
        end
    end
    all_appends[t] = appends
    if appends then
        O.verify(K_READYAT, 'zset')
        O.verify(K_READYAT_N, 'hash')
        O.verify(K_SIGNAL, 'list')
        O.verify(K_READY, 'zset')
    else
        lowest, latest = counter('lowestListed'), counter('latestListed')
        local verified, verified_codes = O.verified, O.verified_codes
        for i = FIRST_TASK, #ARGV, 2 do
            local priority, delay, code = PRIORITY[i], DELAY[i], CODE[i]
            if delay == 0 and no_stale and priority <= lowest and NOW >= latest and string.byte(code, 1) ~= ORDERED_MARK then
                -- the list alone (O.verify_partition's list_only, inline: it runs for every task)
                if not verified_codes[code] then
                    local key = run_key(code)
                    if not verified[key] then O.verify(key, 'list') end
                end
            else
                O.verify_partition(code, false)
            end
            if priority < lowest then lowest = priority end
            if NOW + delay > latest then latest = NOW + delay end
        end
        O.verify_fixed(O.PUBLISH_SKIPS)
    end
end
if grouped then bind(queue_meta) end

-- The ids that name a task already: the queue's own view's and the shared ones (a group holds no task
-- that is not shared), read with one HMGET per thousand; or that were acked inside the dedup window.
local ids = {}
for i = FIRST_TASK, #ARGV, 2 do ids[#ids + 1] = ARGV[i] end
local exists = {}
for first = 1, #ids, 1000 do
    local last = math.min(first + 999, #ids)
    local records = call('HMGET', K_TASKS, unpack(ids, first, last))
    local shared = grouped and call('HMGET', shared_key, unpack(ids, first, last))
    for j = first, last do
        if records[j - first + 1] or shared and shared[j - first + 1] then exists[ids[j]] = true end
    end
end
local forget = {} -- the acked ids given whose dedup window has passed: forgotten now
if call('EXISTS', K_ACKED) == 1 then
    for _, id in ipairs(ids) do
        local free_at = not exists[id] and call('ZSCORE', K_ACKED, id)
        if free_at then
            if tonumber(free_at) > NOW then exists[id] = true else forget[#forget + 1] = id end
        end
    end
end

-- The usual task (regular partition, no delay, no cancelled member anywhere): a record built as is and a
-- list append; a partition that did not exist enters `ready` (or `turns`, when blocked) at once.
local ready_now = 0 -- tasks publish_ready made waiting, ready at NOW: counted once at the end
-- The record of a task publish_ready makes waiting (after the groups' mask, for a shared one).
local function ready_record(seq, priority, blob, mask)
    local head
    if mask then
        if priority ~= 0 then
            head = struct.pack('>i4BI6I6H', mask, FLAG_PRIORITY, seq, NOW, priority + 1000)
        else
            head = struct.pack('>i4BI6I6', mask, 0, seq, NOW)
        end
    elseif priority ~= 0 then
        head = struct.pack('>BI6I6H', FLAG_PRIORITY, seq, NOW, priority + 1000)
    else
        head = struct.pack('>BI6I6', 0, seq, NOW)
    end
    return head .. string.sub(blob, TAIL)
end
-- m: its partition member; its record is saved unless it is shared (a group's view of it).
local function publish_ready(id, seq, priority, blob, code, m)
    if not grouped then save_record(id, ready_record(seq, priority, blob)) end
    ready_now = ready_now + 1
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

-- which tasks are new: decided once for every view (the same id again in this batch is a duplicate)
local reply = { 0 }
local new_tasks = {}
for i = FIRST_TASK, #ARGV, 2 do
    local id = ARGV[i]
    if exists[id] then
        reply[#reply + 1] = 0
    else
        exists[id] = true
        new_tasks[#new_tasks + 1] = i
        reply[#reply + 1] = 1
    end
end
-- seq is the queue's: one counter, kept in the queue's own meta, numbers every task in every group
local seqs, members = {}, {}
for n, i in ipairs(new_tasks) do
    local seq = next_counter('seq')
    seqs[n] = seq
    members[n] = struct.pack('>I7I6', (1000 - PRIORITY[i]) * PRIORITY_SPAN + NOW, seq) .. ARGV[i]
end
local queue_counters, queue_fields = O.c, O.meta_fields

-- The appends to the groups with all_appends, first of all writes. A list that was empty (the partition
-- is new, or has parked tasks only) is given back its member at once: publish_ready makes that task
-- waiting below, after the group's other keys are probed. Should any write or probe fail (a key of the
-- wrong type), every append is undone before the error is raised: nothing is written.
local appended = {} -- per target: n -> true for the tasks appended here
if grouped and #new_tasks > 0 then
    local pushed = {}
    local done, failure = pcall(function()
        for t, meta in ipairs(targets) do
            if all_appends[t] then
                bind(meta)
                local mine, first_members = {}, false
                for n, i in ipairs(new_tasks) do
                    local key = run_key(CODE[i])
                    local length = redis.pcall('RPUSH', key, members[n])
                    if type(length) == 'table' then error({ err = length.err .. ' (key ' .. key .. ')' }) end
                    if length > 1 then
                        pushed[#pushed + 1] = key
                        mine[n] = true
                    else
                        redis.call('RPOP', key)
                        first_members = true
                        O.verify_partition(CODE[i])
                    end
                end
                if first_members then O.verify_fixed(O.PUBLISH_SKIPS) end
                appended[t] = mine
            end
        end
    end)
    if not done then
        for k = #pushed, 1, -1 do redis.call('RPOP', pushed[k]) end
        -- (the error as raised: a table, or its text once Lua's pcall gave it a place)
        if type(failure) == 'table' then error(failure) end
        error({ err = (string.gsub(tostring(failure), '^[^%s]-:%d+: ', '')) })
    end
    bind(queue_meta) -- the queue's own view again, with the seq counted above
    O.c, O.meta_fields, O.counters_changed = queue_counters, queue_fields, true
end
if #forget > 0 then call('ZREM', K_ACKED, unpack(forget)) end
-- Groups: every new task's record once, in `shared` with every group's bit, before any group reads it; no
-- group keeps a record of its own for a task just published (O.records_shared).
if grouped and #new_tasks > 0 then
    O.save_counters()
    local mask_bytes = struct.pack('>i4', mask)
    local args = {}
    for n, i in ipairs(new_tasks) do
        local blob, priority, delay, code = ARGV[i + 1], PRIORITY[i], DELAY[i], CODE[i]
        args[#args + 1] = ARGV[i]
        if delay == 0 and not is_ordered(code) then
            args[#args + 1] = ready_record(seqs[n], priority, blob, mask)
        else -- as put_waiting saves it
            args[#args + 1] = mask_bytes .. O.encode({ state = STATE_WAITING, seq = seqs[n], published = NOW,
                priority = priority, attempts = 0, due = NOW + delay, ready = NOW + delay,
                tail = string.sub(blob, TAIL), code = code })
        end
        if #args == 2000 then
            call('HSET', shared_key, unpack(args))
            args = {}
        end
    end
    if #args > 0 then call('HSET', shared_key, unpack(args)) end
end
for t, meta in ipairs(targets) do
    if grouped then
        bind(meta)
        O.records_shared = true
    else
        O.unsaved, O.unsaved_order = {}, {}
    end
    ready_now = 0
    local c, LOWEST, HIGHEST, LATEST, STALE = O.c, O.COUNTER_INDEX.lowestListed, O.COUNTER_INDEX.highestListed,
        O.COUNTER_INDEX.latestListed, O.COUNTER_INDEX.stale
    if not c then
        O.meta()
        c = O.c
    end
    local tails, fronts, rcall = O.tails, O.fronts, redis.call
    local mine = appended[t]
    for n, i in ipairs(new_tasks) do
        local id, blob, priority, delay, code = ARGV[i], ARGV[i + 1], PRIORITY[i], DELAY[i], CODE[i]
        if mine then
            -- appended above: its bookkeeping; else the first member of its list, made waiting here
            local m = members[n]
            if priority < c[LOWEST] or priority > c[HIGHEST] or NOW > c[LATEST] then O.note_listed(priority, NOW) end
            if mine[n] then
                tails[code], fronts[code] = m, nil
                ready_now = ready_now + 1
            else
                publish_ready(id, seqs[n], priority, blob, code, m)
            end
        elseif grouped and delay == 0 and c[STALE] == 0 and priority <= c[LOWEST] and NOW >= c[LATEST]
            and string.byte(code, 1) ~= ORDERED_MARK then
            -- publish_ready's append, inline for a group (its key probed above): behind a live member, the
            -- list's length says so and nothing else changes; else publish_ready's own path
            local m = members[n]
            if priority < c[LOWEST] or priority > c[HIGHEST] or NOW > c[LATEST] then O.note_listed(priority, NOW) end
            local key = run_key(code)
            if rcall('RPUSH', key, m) > 1 then
                tails[code], fronts[code] = m, nil
                ready_now = ready_now + 1
            else
                rcall('RPOP', key) -- (publish_ready puts it back, as a first member)
                publish_ready(id, seqs[n], priority, blob, code, m)
            end
        elseif delay == 0 and not is_ordered(code) and counter('stale') == 0 then
            publish_ready(id, seqs[n], priority, blob, code, members[n])
        else
            put_waiting(id, {
                seq = seqs[n], published = NOW, priority = priority, attempts = 0,
                due = NOW + delay, ready = NOW + delay, tail = string.sub(blob, TAIL), code = code,
            })
        end
    end
    if #new_tasks > 0 then count('publishedTotal', #new_tasks) end
    if own_timeouts and counter('ownTimeouts') == 0 then O.set_counter('ownTimeouts', 1) end
    if ready_now > 0 then
        count('waiting', ready_now)
        O.readyat_change(NOW, ready_now)
    end
    finish()
end
return reply
