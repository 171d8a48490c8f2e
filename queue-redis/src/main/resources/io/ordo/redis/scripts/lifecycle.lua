-- Taking tasks: consume's rule and the timers a waiting consumer naps on. Part of the library after
-- partition_index.lua.

-- Consume's rule (docs/semantics.md): the eligible partition with the highest head priority, then the
-- lowest turn; one task from a regular partition, the consecutive ready run from an ordered one (which
-- it locks). Registers the consumer too. Appends id and record of each task taken to reply; returns
-- how many were taken, whether `ready` still holds a partition, and whether tasks that fell due are
-- still being made ready (then nothing is taken: the caller calls again at once, see O.promote_due).
-- A task taken is not rewritten: its record keeps the attempts before this delivery, and the lease goes
-- into the consumer's `f:` hash (docs/redis-design.md).
-- Checks, before the call's first write, every key a take may touch (O.verify): the fixed keys, the
-- consumer's holdings, the partitions of what falls due (read now, applied by promote_due), and the
-- first `max` partitions of `ready`. No other partition can be served in this call: to reach one ranked
-- lower, each partition ahead of it must be served first, and promotion only adds partitions or moves
-- them ahead. A list's length read here tells take whether it still holds a member after a pop.
function O.take_prepare(consumer, max)
    if O.take_prepared then return end
    O.take_prepared = true
    local paused = O.meta().paused -- (read first: `meta` needs no probe)
    O.verify_fixed(O.TAKE_SKIPS)
    if max == 0 then return end
    O.verify_consumer(consumer)
    if paused then return end
    local promoting = O.next_timer and O.next_timer <= O.NOW
    -- a promotion this call cannot finish takes nothing (O.take returns at promote_due): no front to probe
    if promoting and not O.plan_promotion().complete then return end
    local any_rest = promoting or O.counter('rest') > 0
    local lengths, probe = O.list_lengths, redis.pcall
    O.take_front = redis.call('ZRANGE', O.K_READY, '0', O.int(max - 1)) -- (an ack's gate reads their limits too)
    for _, code in ipairs(O.take_front) do
        -- the list's probe as a plain read (O.verify's bookkeeping costs ~1,900 instructions per task
        -- here); only a wrong type goes through O.verify, for its error
        local length = probe('LLEN', O.run_key(code))
        if type(length) ~= 'number' then O.verify(O.run_key(code), 'list') end
        lengths[code] = length
        if any_rest then O.verify(O.rest_key(code), 'zset') end
        if O.is_ordered(code) then
            O.verify(O.rest_key(code), 'zset')
            O.verify(O.flight_key(code), 'zset')
        end
    end
end

function O.take(consumer, max, reply)
    O.take_prepare(consumer, max)
    if max == 0 then return 0, nil end -- only acks: no consume, no registration
    local SPAN, ORDERED = O.PRIORITY_SPAN, O.ORDERED_MARK
    local NOW = O.NOW
    local rcall = redis.call -- in the loops: the checked O.call costs a noticeable share of a task
    local m = O.meta()
    local now_text = O.int(NOW)
    local lengths = O.list_lengths
    O.call('ZADD', O.K_CONSUMERS, 'GT', O.int(NOW + m.heartbeat_ttl), consumer)
    O.call('HSET', O.K_HEARTBEATS, consumer, now_text)
    if m.paused then return 0, false end -- a paused queue wakes no other consumer
    if O.next_timer and O.next_timer <= NOW and not O.promote_due() then return 0, nil, true end
    -- caps and rate limits (limits.lua): the queue's free slots and tokens cut what the call takes; each
    -- partition served gives what its own slots and tokens allow, and one at its cap or out of tokens leaves
    -- `ready`
    local limits = m.limits
    local room, gate, counted_head = max, nil, nil
    -- a regular partition's count and bucket are kept here as the gate's took keeps them, without a call
    -- to it per task (a regular partition's cap: its override, else the partition cap, as the gate's cap_of)
    local changed, flights, overrides, partition_cap
    local bucket_units, per
    if limits then
        room = O.room(max)
        gate = O.gate()
        if limits.gated then changed = gate.changed end
        if limits.counting then
            counted_head = O.counted_lease_head() -- (the lease names the partition)
            flights, overrides, partition_cap = gate.flights, limits.ov, limits.pc
        end
        if limits.pr then
            bucket_units = gate.bucket_units
            per = limits.pr.per
        end
    end

    local taken = 0
    local ids, leases = {}, {}
    local regular_lease = O.regular_lease()
    local ready_unknown = {} -- the tasks whose readyAt their record tells
    -- readyAt counts: a regular member's dueAt is its readyAt; runs of one value are summed here
    local ready_t, ready_n = nil, 0
    local turn = O.counter('turn')
    -- The best partitions are read several at a time; each served one goes back with a new turn, usually
    -- behind all the others, and the index writes of a window go together. When one went back ahead of
    -- the next candidate (its new head has a higher priority), the window ends and `ready` is read again.
    -- no sorted-set member and no cancelled list member anywhere: a regular partition's list front is
    -- its head, and the member after it the next head
    local lean = O.counter('rest') == 0 and O.counter('stale') == 0
    -- and every partition's head has the same priority: the scores of `ready` need not be read
    local uniform = lean and O.counter('lowestListed') >= O.counter('highestListed')
    local uniform_base = (1000 - O.counter('lowestListed')) * SPAN -- the score of a head of that priority, turn 0
    local int = O.int
    -- how many to read: what is left to take (a regular partition gives one task), at least 16 and then
    -- doubled at each read, as an ordered partition may give many
    local reading = math.max(16, max)
    local ready_left = nil
    while taken < room do
        local stop = int(math.min(room - taken, reading) - 1)
        local candidates, step
        if uniform then
            candidates, step = rcall('ZRANGE', O.K_READY, '0', stop), 1
        else
            candidates, step = rcall('ZRANGE', O.K_READY, '0', stop, 'WITHSCORES'), 2
        end
        reading = 2 * reading
        if #candidates == 0 then
            ready_left = false
            break
        end
        if gate then gate.read(candidates, step) end
        local adds, removes = {}, {}
        local readded -- the lowest score a served partition went back with in this window
        local i = 1
        while i <= #candidates and taken < room do
            if readded and readded < tonumber(candidates[i + 1]) then break end -- (never while uniform)
            local code = candidates[i]
            turn = turn + 1
            local ordered = string.byte(code, 1) == ORDERED -- O.is_ordered, without a Lua call per task
            local allowed = room - taken
            if ordered and gate then allowed = gate.allowance(code, allowed) end -- (a regular one gives one)
            if allowed == 0 then -- out of tokens (never so while `ready` is kept right): out of it
                removes[#removes + 1] = code
                O.call('HSET', O.K_TURNS, code, int(turn))
            elseif ordered then
                local before = taken
                local members = {}
                local lease_head = O.ordered_lease(code, '') -- each task's lease: this, then its member
                local function took(mb, ready)
                    taken = taken + 1
                    if ready then O.readyat_remove(ready) else ready_unknown[#ready_unknown + 1] = taken end
                    local id = string.sub(mb, 14)
                    ids[taken] = id
                    leases[2 * taken - 1] = id
                    leases[2 * taken] = lease_head .. mb
                    members[#members + 1] = '0'
                    members[#members + 1] = mb
                end
                local remains
                if lean and not O.any_delayed() then -- every member is ready: the run is the list's front
                    local key = O.run_key(code)
                    -- (a retry keeps its dueAt and may have another readyAt: read from its record below)
                    local popped = rcall('LPOP', key, int(allowed)) or {}
                    for _, mb in ipairs(popped) do took(mb, nil) end
                    local length = lengths[code]
                    if length then
                        lengths[code] = length - #popped
                        remains = length > #popped
                    else
                        remains = rcall('EXISTS', key) == 1
                    end
                else
                    while taken - before < allowed do
                        local mb, r, from_run = O.part_head(code, true)
                        if not mb or r.ready > NOW then break end
                        O.part_pop(code, mb, from_run)
                        took(mb, r.ready)
                    end
                    remains = O.part_head(code)
                end
                if #members > 0 then O.call('ZADD', O.flight_key(code), unpack(members)) end
                if gate then gate.took(code, taken - before) end
                O.call('HSET', O.K_LOCKS, code, consumer)
                O.call('HSET', O.K_LOCK_SINCE, code, now_text)
                removes[#removes + 1] = code
                if remains then O.call('HSET', O.K_TURNS, code, int(turn)) else O.drop_partition(code) end
            else
                local mb, head
                if uniform then -- the next head's priority is known: whether there is one is enough
                    local key = O.run_key(code)
                    mb = rcall('LPOP', key)
                    local length = lengths[code]
                    if length then
                        lengths[code] = length - 1
                        head = length > 1
                    else
                        head = rcall('EXISTS', key) == 1
                    end
                elseif lean then
                    local key = O.run_key(code)
                    mb = rcall('LPOP', key)
                    lengths[code] = nil
                    head = rcall('LINDEX', key, '0')
                else
                    local record, from_run
                    mb, record, from_run = O.part_head(code)
                    O.part_pop(code, mb, from_run)
                    head = O.part_head(code)
                end
                local score = struct.unpack('>I7', mb)
                local t = score % SPAN
                if t == ready_t then
                    ready_n = ready_n + 1
                else
                    if ready_t then O.readyat_change(ready_t, -ready_n) end
                    ready_t, ready_n = t, 1
                end
                taken = taken + 1
                local id = string.sub(mb, 14)
                ids[taken] = id
                leases[2 * taken - 1] = id -- (two entries for every task taken)
                if counted_head then
                    leases[2 * taken] = counted_head .. code
                else
                    leases[2 * taken] = regular_lease
                end
                -- with limits: a partition now at its cap or out of tokens leaves `ready`, keeping its turn
                local held = false
                if changed then -- (as gate.took: counted, and held when at its cap; gate.read read it)
                    changed[#changed + 1] = code
                    if flights then
                        local count = flights[code] + 1
                        flights[code] = count
                        local cap = overrides[code] or partition_cap
                        held = head and cap > 0 and count >= cap
                    end
                    if per then -- (and its tokens: held, and throttled, when out of them)
                        local u = bucket_units[code] - per
                        bucket_units[code] = u
                        if head and not held and u < per then
                            gate.throttle(code, u)
                            held = true
                        end
                    end
                end
                if head and not held then
                    if uniform then
                        score = uniform_base + turn
                    else
                        score = struct.unpack('>I7', head)
                        score = score - score % SPAN + turn -- the next head's priority, the partition's new turn
                    end
                    adds[#adds + 1] = int(score)
                    adds[#adds + 1] = code
                    if not uniform and (not readded or score < readded) then readded = score end
                else
                    removes[#removes + 1] = code
                    -- held, or only delayed tasks left: it exists, out of `ready`; else its list is empty and
                    -- it is gone
                    if held or O.parked(code) > 0 then O.call('HSET', O.K_TURNS, code, int(turn)) end
                end
            end
            i = i + step
        end
        if #adds > 0 then O.call('ZADD', O.K_READY, unpack(adds)) end
        if #removes > 0 then O.call('ZREM', O.K_READY, unpack(removes)) end
        if #adds > 0 or i <= #candidates then ready_left = true end
    end
    O.set_counter('turn', turn)
    if ready_t then O.readyat_change(ready_t, -ready_n) end
    if limits then
        O.took_from_queue(taken)
        if taken >= room and room < max then ready_left = false end -- out of slots or tokens: no one to wake
    end
    if taken > 0 then -- at most MAX_CONSUME tasks: 2,000 arguments, well within unpack's limit
        local records = O.hand_over(consumer, ids, leases, taken, reply)
        for _, j in ipairs(ready_unknown) do O.readyat_remove(O.record_ready(records[j])) end
    end
    return taken, ready_left
end
local take = O.take

-- The taken tasks into the consumer's holding (leases: id, lease, ...), each id and its record appended to
-- the reply; their records.
function O.hand_over(consumer, ids, leases, taken, reply)
    O.count('waiting', -taken)
    O.call('HSET', O.holding_key(consumer), unpack(leases))
    local records = O.load_records(ids)
    O.note_own_timeouts(consumer, ids, records, taken)
    local n = #reply
    for j = 1, taken do
        reply[n + 2 * j - 1] = ids[j]
        reply[n + 2 * j] = records[j]
    end
    return records
end

-- Milliseconds until something may fall due (a delayed task, an ordered head, a block's end), or -1;
-- -2 when tasks that fell due are still being made ready (the consumer calls again at once).
-- -1 while paused: nothing is delivered until resume, which wakes a blocked consumer itself.
O.PROMOTING = -2
function O.until_next_timer(promoting)
    if promoting then return O.PROMOTING end
    if not O.next_timer or O.meta().paused then return -1 end
    return math.max(O.next_timer - O.NOW, 0)
end
local until_next_timer = O.until_next_timer
