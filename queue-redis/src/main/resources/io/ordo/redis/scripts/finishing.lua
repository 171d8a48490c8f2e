-- A task leaving a consumer's hands: acked, given back, dead-lettered, redriven or purged, and the end
-- of every call (finish). Part of the library after lifecycle.lua.

-- Deletes the tasks the consumer holds among ids[first..last]; appends per id 1 acked, 0 lease lost.
-- before_writes, when given, runs after the leases are read and before the first write (ack_consume
-- checks there what its take will touch: see O.verify).
O.ACK_CHUNK = 1000 -- ids per command: unpack has a limit, and a command stays short
-- The partitions of the tasks an ack takes back while a cap is set (one per task), kept with the library and
-- filled anew by each ack, with a count of its own: a list built per call grows through a rehash at every
-- doubling.
local acked_codes = {}
function O.ack(consumer, ids, first, last, reply, before_writes, results_by_id)
    local rcall = redis.call
    -- (read first: `meta` needs no probe); a group remembers ids in the queue's window once all are done
    local window = not O.K_SHARED and O.meta().dedup_window or 0
    O.verify_fixed(O.ACK_SKIPS)
    O.verify_consumer(consumer)
    local holding = O.holding_key(consumer)
    local ORDERED_LEASE, COUNTED_LEASE = O.ORDERED_LEASE, O.COUNTED_LEASE
    local limits = O.limits()
    local counting = limits and limits.counting
    local done, remembered, seen = {}, {}, {}
    local keeps = O.results().retention > 0
    local done_leases = keeps and {} or nil -- (kept as completed: their leases count the delivery)
    -- with a cap: the partition of each task acked, from its lease; of those whose lease has no code
    -- (taken before the cap was set) from their records, read before they go
    local left, n_left, unplaced = acked_codes, 0, nil
    if counting then unplaced = {} end
    local sub = string.sub
    local flights, codes = {}, {} -- ordered partitions: code -> members to take out of its in-flight set
    local n = #reply
    for from = first, last, O.ACK_CHUNK do
        local to = math.min(from + O.ACK_CHUNK - 1, last)
        local leases = O.call('HMGET', holding, unpack(ids, from, to))
        for i = from, to do
            local id, lease = ids[i], leases[i - from + 1]
            n = n + 1
            if lease and not seen[id] then -- an id named twice is acked once
                seen[id] = true
                done[#done + 1] = id
                if keeps then done_leases[#done] = lease end
                local mark = string.byte(lease, 1)
                if mark == ORDERED_LEASE then
                    local code, m = O.lease_place(lease)
                    if not flights[code] then
                        flights[code] = {}
                        codes[#codes + 1] = code
                    end
                    flights[code][#flights[code] + 1] = m
                    if counting then
                        n_left = n_left + 1
                        left[n_left] = code
                    end
                elseif counting then
                    if mark == COUNTED_LEASE then
                        n_left = n_left + 1
                        left[n_left] = sub(lease, 8)
                    else
                        unplaced[#unplaced + 1] = id
                    end
                end
                if window > 0 then
                    remembered[#remembered + 1] = O.NOW + window
                    remembered[#remembered + 1] = id
                end
                reply[n] = 1
            else
                reply[n] = 0
            end
        end
    end
    for _, code in ipairs(codes) do O.verify_partition(code) end
    if counting then
        for from = 1, #unplaced, O.ACK_CHUNK do
            local to = math.min(from + O.ACK_CHUNK - 1, #unplaced)
            local records = O.load_records({ unpack(unplaced, from, to) })
            for _, s in ipairs(records) do
                n_left = n_left + 1
                left[n_left] = O.decode(s).code
            end
        end
    end
    if before_writes then before_writes() end
    if window > 0 then rcall('ZREMRANGEBYSCORE', O.K_ACKED, '-inf', O.NOW) end
    if O.results().events > 0 and #done > 0 then
        for i, s in ipairs(O.load_records(done)) do O.event(O.EVENT_COMPLETED, done[i], O.decode(s).code) end
    end
    if keeps then O.keep_completed(consumer, done, done_leases, results_by_id) end
    for from = 1, #done, O.ACK_CHUNK do
        local to = math.min(from + O.ACK_CHUNK - 1, #done)
        rcall('HDEL', holding, unpack(done, from, to))
        if not keeps then rcall('HDEL', O.K_TASKS, unpack(done, from, to)) end
    end
    if not keeps then O.release_shared(done, true) end
    O.uncontrol(done, 1, #done)
    -- an ordered partition's lock goes once the holder has nothing left of it
    for _, code in ipairs(codes) do
        local members = flights[code]
        for from = 1, #members, O.ACK_CHUNK do
            O.call('ZREM', O.flight_key(code), unpack(members, from, math.min(from + O.ACK_CHUNK - 1, #members)))
        end
        O.release_lock_if_done(consumer, code)
    end
    for from = 1, #remembered, 2 * O.ACK_CHUNK do
        O.call('ZADD', O.K_ACKED, unpack(remembered, from, math.min(from + 2 * O.ACK_CHUNK - 1, #remembered)))
    end
    if n_left > 0 then O.gate().left(left, n_left) end
    if #done > 0 then O.count('ackedTotal', #done) end
end
local ack = O.ack

-- ---------------------------------------------------------------- giving tasks back (reject, release)

-- Takes the named tasks back from the consumer and, per ordered partition, every task it holds after
-- the lowest named one (rule 5). decide(id, record, named) returns each task's outcome code; a task whose
-- cancellation was asked is deleted instead, outcome `cancelled` (its record marked r.cancelled).
-- Reply: one outcome per id given (0 = lease lost), then id and outcome of each unnamed task, in key order.
function O.give_back(consumer, ids, decide, cancelled)
    O.verify_fixed()
    O.verify_consumer(consumer)
    local named, lowest = {}, {}
    local affected = {}
    for _, id in ipairs(ids) do
        local r = not named[id] and O.load_held(consumer, id)
        if r then
            O.verify_partition(r.code) -- (before the first write: see O.verify)
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
                local r = O.load_held(consumer, id)
                if r then
                    r.id, r.m, r.named = id, m, false
                    affected[#affected + 1] = r
                end
            end
        end
    end
    -- seq order, so tasks re-enter their partitions (and empty partitions get turns) in one fixed order
    table.sort(affected, function(a, b) return a.seq < b.seq end)
    for _, r in ipairs(affected) do
        r.cancelled = O.cancel_requested(r.id)
        O.leave_flight(r.id, r, r.m)
        if r.cancelled then
            O.drop_cancelled(r.id, r.code)
            r.outcome = cancelled
        else
            r.outcome = decide(r.id, r, r.named)
        end
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
local give_back = O.give_back

-- ---------------------------------------------------------------- dead letters

-- Operators' calls over every dead letter (redrive_all, purge_all_dead_letters) go in chunks of at most
-- this many, each one call: one call stays well under 10 ms at a million dead letters (reliability.md).
O.REDRIVE_CHUNK = 50
O.PURGE_CHUNK = 500
O.DEAD_AGE_PAGE = 8 -- the dead letters' records read at once to find their ages (each with its payload)
O.GROUP_DELETE_CHUNK = 200 -- the partitions and consumers of a deleted group whose keys go per call (at most)
O.GROUP_COPY_PAGE = 100 -- the shared records a copy of a group's backlog looks at per call (about: HSCAN's COUNT)
O.RECLAIM_CHUNK = 15 -- the tasks of dead consumers taken back per reclaim call (at most)
-- the overdue tasks of live consumers taken back per reclaim call (at most): fewer, as each is found by a
-- scan and an ordered one may bring its batch back with it
O.TIMEOUT_CHUNK = 15
O.TIMEOUT_SCAN = 2000 -- the live leases a reclaim call looks at for the processing timeout (about)
-- The leases one HSCAN asks for. Small, as one HSCAN cannot be cut short: while a hash that emptied is
-- being shrunk, the server visits up to ten empty buckets of each table per lease asked for.
O.TIMEOUT_SCAN_PAGE = 50

-- A dead letter (r: its record as loaded) back into its partition with attempts reset, due now; priority,
-- seq and last error kept.
function O.redrive(id, r)
    if not r or r.state ~= O.STATE_DEAD then return false end
    O.call('ZREM', O.K_DEAD, id)
    r.attempts, r.due, r.ready = 0, O.NOW, O.NOW
    O.put_waiting(id, r)
    return true
end
local redrive = O.redrive

function O.purge(id)
    if O.call('ZREM', O.K_DEAD, id) == 0 then return false end
    O.delete_records({ id })
    return true
end
local purge = O.purge

-- cause: the reclaim cause when reclaim buries the task, else nil
-- A dead letter (r: its record, held) into the dead letters; then the oldest past the caps go, at most
-- DEAD_LETTERS_DROPPED_PER_DEATH (Java's QueueSettings).
function O.bury(id, r, reason, cause)
    r.state, r.at, r.holder, r.error, r.cause = O.STATE_DEAD, O.NOW, nil, reason, cause
    O.save(id, r)
    O.call('ZADD', O.K_DEAD, O.int(O.next_counter('deadSeq')), id)
    O.count('deadLetteredTotal', 1)
    O.event(O.EVENT_DEAD_LETTERED, id, r.code, reason)
    if O.meta().dead_caps_text then O.drop_dead(O.DEAD_LETTERS_DROPPED_PER_DEATH) end
end
local bury = O.bury

-- Deletes the oldest dead letters while the caps say so (QueueSettings.dropsOldestDeadLetter): more of them
-- than the count cap, or the oldest died the age cap ago or longer. At most `most`, and with `began`
-- (server_micros) no more once a chunk's time is spent. The age is in each record, read a page at a time;
-- once the oldest is found young enough, the rest of the call does not look again (its time stands still,
-- and letters join at the young end). Returns how many it deleted and whether the caps may delete more.
function O.drop_dead(most, began)
    local caps = O.dead_caps()
    if not caps then return 0, false end
    local over = caps.count > 0 and O.call('ZCARD', O.K_DEAD) - caps.count or 0
    if over <= 0 and (caps.age == 0 or O.oldest_dead_kept) then return 0, false end
    local gone, more = {}, false
    local from = 0
    while #gone < most do
        local ids = O.call('ZRANGE', O.K_DEAD, from, from + math.min(most - #gone, O.DEAD_AGE_PAGE) - 1)
        if #ids == 0 then break end
        from = from + #ids
        local records = caps.age > 0 and #gone + #ids > over and O.load_records(ids)
        local kept = false
        for i, id in ipairs(ids) do
            if #gone >= over then
                local s = records and records[i]
                if not s or O.record_dead_at(s) + caps.age > O.NOW then
                    kept = true
                    break
                end
            end
            gone[#gone + 1] = id
        end
        if kept then
            O.oldest_dead_kept = true
            break
        end
        if began and O.spent(began, O.CHUNK_MICROS) then
            more = true
            break
        end
    end
    if #gone == 0 then return 0, false end
    O.call('ZREM', O.K_DEAD, unpack(gone))
    O.delete_records(gone)
    O.count('deadLettersDroppedTotal', #gone)
    return #gone, more or #gone == most
end

-- Recomputes every partition touched by this call, writes what the call kept aside, and wakes a blocked
-- consumer if work is waiting.
-- signal: nil to look at `ready`; false when the caller made no work available except through the
-- partitions it touched (ack), so with none touched the signal is as the previous call left it; true
-- when the caller knows `ready` holds a partition (consume leaving work behind).
function O.finish(signal)
    O.save_unsaved()
    O.save_events()
    local touched_any = #O.touched_order > 0
    O.refresh_touched()
    O.save_readyat()
    O.save_limits()
    O.save_counters()
    -- A blocked consumer naps until the earliest due time it knew of; a new due time wakes one so it
    -- looks again (a retry delay shorter than its nap would otherwise be served late).
    local new_due_time = O.new_due_time
    O.new_due_time = false
    if signal == false and not touched_any and not new_due_time then return end
    if (new_due_time or signal or (O.call('ZCARD', O.K_READY) > 0)) and O.call('EXISTS', O.K_SIGNAL) == 0 then
        O.call('RPUSH', O.K_SIGNAL, 1)
    end
end
local finish = O.finish
