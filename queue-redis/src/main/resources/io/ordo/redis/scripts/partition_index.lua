-- The partition index: the order inside a partition (its list and sorted set), the order across them
-- (`ready`, `turns`), time-driven changes, and a task joining or leaving one. Part of the library after
-- record.lua (docs/redis-design.md).

-- ---------------------------------------------------------------- order inside a partition
-- A member is score(7) seq(6) id, score = (1000 - priority) * 2^42 + dueAt: its fixed-width prefix
-- sorts byte-wise exactly like the ordering key (priority desc, dueAt asc, seq asc).

function O.member(r, id)
    return struct.pack('>I7I6', (1000 - r.priority) * O.PRIORITY_SPAN + r.due, r.seq) .. id
end
local member = O.member

function O.member_seq(m)
    local _, seq = struct.unpack('>I7I6', m)
    return seq
end

function O.member_id(m) return string.sub(m, 14) end
local member_id = O.member_id

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
local member_before = O.member_before

-- What this call learnt about partitions, so a batch touching one partition many times reads it once:
-- O.heads: code -> {member, record, from_run}, or false when it has no waiting member;
-- O.tails: code -> last member of its list, or false when the list is empty;
-- O.fronts: code -> {first, second} members of its list (false: none; second nil: not known).

function O.forget(code)
    O.heads[code] = nil
end

-- A partition's waiting tasks not in its list: in its sorted set, or (regular) delayed and not due.
O.DELTA_TEXT = { [1] = '1', [-1] = '-1' } -- (a number handed to redis.call is formatted by "%.17g")
function O.park(code, delta)
    if O.call('HINCRBY', O.K_PARKED, code, O.DELTA_TEXT[delta] or O.int(delta)) <= 0 then O.call('HDEL', O.K_PARKED, code) end
    O.count('parked', delta)
end
local park = O.park

function O.parked(code)
    if O.counter('parked') == 0 then return 0 end
    return tonumber(O.call('HGET', O.K_PARKED, code)) or 0
end
local parked = O.parked

-- O.verify_partition for a partition tasks are about to join: the list's probe reads its last member,
-- which part_insert needs (one command where there were two).
function O.verify_joining(code)
    if not O.verified_codes[code] and O.tails[code] == nil then
        local run = O.run_key(code)
        local last = redis.pcall('LINDEX', run, '-1')
        if type(last) == 'table' then O.verify(run, 'list') end -- a wrong type: its error
        O.verified[run] = true
        O.tails[code] = last
    end
    O.verify_partition(code)
end

-- A partition's waiting tasks live in two places: a list taking every arrival that sorts after the
-- list's last member (the usual case: publish order), and a sorted set for the rest. The list costs a
-- few bytes per task; the head is the lower of the two heads.
-- Returns true when the member went behind a live list member, so the partition's head is unchanged.
-- was_parked: the task was counted among the partition's parked ones (a regular task that was delayed).
function O.part_insert(code, m, was_parked)
    local last = O.tails[code]
    if last == nil then last = O.call('LINDEX', O.run_key(code), '-1') end
    if not last or O.member_before(last, m) then
        O.call('RPUSH', O.run_key(code), m)
        if was_parked then O.park(code, -1) end
        O.list_lengths[code] = nil
        O.listed(m)
        O.tails[code] = m
        -- an append changes the list's first two members only while it holds fewer than two
        local front = O.fronts[code]
        if not last then
            O.fronts[code] = { m, false }
        elseif front and front[2] == false then
            O.fronts[code] = { front[1], m }
        end
        if last and O.counter('stale') == 0 then return true end
    elseif O.call('ZADD', O.rest_key(code), '0', m) == 1 then
        O.count('rest', 1) -- members in all sorted sets: while 0, no call looks at them
        if not was_parked then O.park(code, 1) end
        -- behind the list's live front (the list holds `last`), the head is unchanged
        if O.counter('stale') == 0 then
            local front = O.list_front(code)[1]
            if front and O.member_before(front, m) then return true end
        end
    elseif was_parked then
        O.park(code, -1)
    end
    O.forget(code)
    return false
end
local part_insert = O.part_insert

-- Notes a list member's priority and dueAt (see lowestListed, highestListed).
function O.note_listed(priority, due)
    if priority < O.counter('lowestListed') then O.set_counter('lowestListed', priority) end
    if priority > O.counter('highestListed') then O.set_counter('highestListed', priority) end
    if due > O.counter('latestListed') then O.set_counter('latestListed', due) end
end

function O.listed(m)
    local score = struct.unpack('>I7', m)
    O.note_listed(1000 - math.floor(score / O.PRIORITY_SPAN), score % O.PRIORITY_SPAN)
end

-- The record of a member if it still names a waiting task (a cancelled task leaves its list member
-- behind; it is dropped when it reaches the front). While the queue has no such member ('stale' is 0),
-- list members need no check.
function O.live(m)
    local id = O.member_id(m)
    local r = O.load(id)
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

-- The list's first two members (false: none): after taking the first, the next head is known without a call.
function O.list_front(code)
    local front = O.fronts[code]
    if not front then
        local first_two = O.call('LRANGE', O.run_key(code), '0', '1')
        front = { first_two[1] or false, first_two[2] or false }
        O.fronts[code] = front
    end
    return front
end

function O.find_head(code)
    local run, rest = O.run_key(code), O.rest_key(code)
    local b = O.counter('rest') > 0 and O.call('ZRANGE', rest, '0', '0')[1]
    while true do
        local a = O.list_front(code)[1]
        if a and (not b or O.member_before(a, b)) then
            if O.counter('stale') == 0 then return { a, false, true } end
            local r = O.live(a)
            if r then return { a, r, true } end
            O.call('LPOP', run)
            O.fronts[code] = nil
            O.list_lengths[code] = nil
            O.count('stale', -1)
            if O.call('HINCRBY', O.K_STALE, code, -1) <= 0 then O.call('HDEL', O.K_STALE, code) end
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
        O.list_lengths[code] = nil
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
        O.park(code, -1)
    end
    O.forget(code)
end

-- ---------------------------------------------------------------- partitions and eligibility
-- A partition exists while it holds a waiting task. An existing partition is in `ready` (eligible: its
-- turn is in the score) or in `turns` (not eligible: blocked, locked, head not ready, only delayed
-- tasks), never in both.

function O.touch(code)
    if not O.touched[code] then
        O.touched[code] = true
        O.touched_order[#O.touched_order + 1] = code
    end
end
local touch = O.touch

-- Whether the partition exists (ZRANK: ZSCORE's reply is a double, formatted and parsed again).
function O.partition_exists(code)
    return O.call('ZRANK', O.K_READY, code) ~= false or O.call('HEXISTS', O.K_TURNS, code) == 1
end

-- The partition's turn, or nil when it does not exist; and whether it is in `ready`.
function O.turn_of(code)
    local score = O.call('ZSCORE', O.K_READY, code)
    if score then return tonumber(score) % O.PRIORITY_SPAN, true end
    return tonumber(O.call('HGET', O.K_TURNS, code)), false
end

-- A partition comes into existence with a new turn; refresh() puts it in `ready` when it is eligible.
function O.create_partition(code)
    O.call('HSET', O.K_TURNS, code, O.int(O.next_counter('turn')))
    O.touch(code)
end

-- How many waiting tasks a partition holds.
function O.size(code)
    local stale = O.counter('stale') > 0 and tonumber(O.call('HGET', O.K_STALE, code)) or 0
    return O.call('LLEN', O.run_key(code)) - stale + O.parked(code)
end
local size = O.size

function O.drop_partition(code)
    O.call('ZREM', O.K_READY, code)
    O.call('HDEL', O.K_TURNS, code)
    if O.counter('stale') > 0 then
        local stale = tonumber(O.call('HGET', O.K_STALE, code))
        if stale then
            O.count('stale', -stale)
            O.call('HDEL', O.K_STALE, code)
        end
    end
    O.call('DEL', O.run_key(code))
    O.heads[code], O.tails[code], O.fronts[code] = false, false, nil
    O.list_lengths[code] = nil
end

-- Whether any task waits for its time: without one, every waiting task is ready.
function O.any_delayed()
    if O.delayed_exists == nil then O.delayed_exists = O.call('EXISTS', O.K_DELAYED) == 1 end
    return O.delayed_exists
end

-- Whether any ordered partition waits for its head's time (`wake` is not empty).
function O.any_waking()
    if O.wake_exists == nil then O.wake_exists = O.call('EXISTS', O.K_WAKE) == 1 end
    return O.wake_exists
end

function O.is_blocked(code)
    if O.any_blocked == nil then O.any_blocked = O.call('EXISTS', O.K_BLOCKED) == 1 end
    if not O.any_blocked then return false end
    local blocked_until = O.call('ZSCORE', O.K_BLOCKED, code)
    return blocked_until ~= false and tonumber(blocked_until) > O.NOW
end
local is_blocked = O.is_blocked

-- Puts a partition in the index of eligible partitions, or takes it out, from its current state.
function O.refresh(code)
    local turn, indexed = O.turn_of(code)
    local ordered = O.is_ordered(code)
    -- a regular partition's members are all ready; an ordered head may wait for its time only while a
    -- task is in `delayed` (a task not ready when it arrived stays there until due)
    local timed = ordered and O.any_delayed()
    local m, r
    if turn and not (ordered and O.call('HEXISTS', O.K_LOCKS, code) == 1) and not O.is_blocked(code)
            and not (O.limits() and O.held_back(code)) then -- at its cap or out of tokens (limits.lua)
        m, r = O.part_head(code, timed)
    end
    local ready = m and (not timed or r.ready <= O.NOW)
    if ready then
        O.call('ZADD', O.K_READY, O.int((1000 - O.member_priority(m)) * O.PRIORITY_SPAN + turn), code)
        if not indexed then O.call('HDEL', O.K_TURNS, code) end
    elseif indexed then
        O.call('ZREM', O.K_READY, code)
        O.call('HSET', O.K_TURNS, code, O.int(turn))
    end
    if ordered then
        if m and not ready then
            -- an ordered head waiting for its time; a new or moved time may end a blocked consumer's nap sooner
            if O.call('ZADD', O.K_WAKE, 'CH', O.int(r.ready), code) == 1 then O.new_due_time = true end
            O.wake_exists = true
            O.note_timer(r.ready)
        elseif O.any_waking() then
            O.call('ZREM', O.K_WAKE, code)
        end
    end
end

function O.refresh_touched()
    for _, code in ipairs(O.touched_order) do O.refresh(code) end
    O.touched, O.touched_order = {}, {}
end
local refresh_touched = O.refresh_touched

-- Applies what time has made true since `nextTimer`: delayed tasks that are due join their partitions,
-- ordered heads and blocks whose time has come are looked at again; then `nextTimer` is read anew.
-- At most PROMOTE_CHUNK entries per call, earliest first, and no more once the call has used about
-- CHUNK_MICROS, so one call never holds the server for long.
-- Returns whether everything due is applied: until it is, a consume takes nothing (it asks its caller to
-- call again at once), so however many tasks fall due together none is delivered before a task that
-- the contract's order puts first (docs/redis-design.md, "Time").
O.PROMOTE_CHUNK = 50

-- What the next promote_due applies, read (and its partitions' keys checked) before the call writes: the
-- ids due, their partitions' codes and (regular) their members.
function O.plan_promotion()
    if O.promotion then return O.promotion end
    local budget = O.PROMOTE_CHUNK
    local due = O.call('ZRANGEBYSCORE', O.K_DELAYED, '-inf', O.NOW, 'LIMIT', 0, budget)
    local plan = { due = due, codes = {}, members = {} }
    local codes, members = plan.codes, plan.members
    for i, s in ipairs(O.load_records(due)) do
        local code, m = O.record_place(s, due[i])
        codes[i] = code
        if not O.is_ordered(code) then members[i] = m end
        O.verify_joining(code)
    end
    plan.complete = #due < budget
    budget = budget - #due
    -- a woken or unblocked partition is looked at again by refresh, which takes it out of `wake`
    plan.waking, plan.unblocked, plan.unthrottled = {}, {}, {}
    if plan.complete then
        plan.waking = O.call('ZRANGEBYSCORE', O.K_WAKE, '-inf', O.NOW, 'LIMIT', 0, budget)
        plan.complete = #plan.waking < budget
        budget = budget - #plan.waking
    end
    if plan.complete then
        plan.unblocked = O.call('ZRANGEBYSCORE', O.K_BLOCKED, '-inf', O.NOW, 'LIMIT', 0, budget)
        plan.complete = #plan.unblocked < budget
        budget = budget - #plan.unblocked
    end
    local limits = O.limits()
    if plan.complete and limits and limits.pr then -- partitions whose next token came (limits.lua)
        plan.unthrottled = O.call('ZRANGEBYSCORE', O.K_THROTTLED, '-inf', O.NOW, 'LIMIT', 0, budget)
        plan.complete = #plan.unthrottled < budget
    end
    for _, code in ipairs(plan.unthrottled) do O.verify_partition(code) end
    for _, code in ipairs(plan.waking) do O.verify_partition(code) end
    for _, code in ipairs(plan.unblocked) do O.verify_partition(code) end
    O.promotion = plan
    return plan
end

function O.promote_due()
    local plan = O.plan_promotion()
    O.promotion = nil
    local began = O.server_micros()
    local applied = 0
    local codes, members = plan.codes, plan.members
    for i = 1, #plan.due do
        local code, m = codes[i], members[i]
        -- a regular task joins its partition (its head is unchanged when it goes behind a live list
        -- member); an ordered one is in its partition already, and the head may have become ready
        if not m or not O.part_insert(code, m, true) then O.touch(code) end
        applied = i
        -- (the partitions touched are looked at again below, at about the same cost: half the time here)
        if i % 32 == 0 and i < #plan.due and O.spent(began, O.CHUNK_MICROS / 2) then break end
    end
    if applied > 0 then O.call('ZREMRANGEBYRANK', O.K_DELAYED, 0, applied - 1) end
    O.delayed_exists = nil
    local complete = plan.complete and applied == #plan.due
    if applied == #plan.due then
        for _, code in ipairs(plan.waking) do O.touch(code) end
        for _, code in ipairs(plan.unblocked) do O.touch(code) end
        if #plan.unblocked > 0 then
            O.call('ZREMRANGEBYRANK', O.K_BLOCKED, 0, #plan.unblocked - 1)
            O.any_blocked = nil
        end
        for _, code in ipairs(plan.unthrottled) do O.touch(code) end
        if #plan.unthrottled > 0 then O.call('ZREMRANGEBYRANK', O.K_THROTTLED, 0, #plan.unthrottled - 1) end
    end
    O.refresh_touched()
    local next_timer = false
    local timed = { O.K_DELAYED, O.K_WAKE, O.K_BLOCKED }
    if O.limits() and O.limits().pr then timed[4] = O.K_THROTTLED end
    for _, key in ipairs(timed) do
        local first = O.call('ZRANGE', key, 0, 0, 'WITHSCORES')[2]
        if first and (not next_timer or tonumber(first) < next_timer) then next_timer = tonumber(first) end
    end
    O.next_timer, O.next_timer_changed = next_timer, true
    return complete
end

-- The readyAt counts are summed per value during a call and written once by finish(): the tasks a
-- publish or a consume moves mostly share one readyAt (one millisecond), so this is one HINCRBY, not
-- one per task.
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
            local field = O.int(t)
            local n = O.call('HINCRBY', O.K_READYAT_N, field, O.int(delta))
            if n <= 0 then
                O.call('HDEL', O.K_READYAT_N, field)
                O.call('ZREM', O.K_READYAT, field)
            elseif n == delta then
                O.call('ZADD', O.K_READYAT, field, field) -- the value was new
            end
        end
    end
    O.readyat_delta, O.readyat_order = {}, {}
end

-- A task joins its partition (publish with a delay, return, redrive); an empty partition gets a new turn.
function O.put_waiting(id, r)
    r.state, r.at, r.holder = O.STATE_WAITING, nil, nil
    O.save(id, r)
    local code = r.code
    local ordered = O.is_ordered(code)
    if not O.partition_exists(code) then O.create_partition(code) end
    O.count('waiting', 1)
    O.readyat_add(r.ready)
    if r.ready > O.NOW then
        O.call('ZADD', O.K_DELAYED, r.ready, id)
        O.delayed_exists = true
        O.note_timer(r.ready)
        O.new_due_time = true
        if not ordered then
            O.park(code, 1)
            return -- it joins the list or sorted set when due
        end
    end
    if not O.part_insert(code, O.member(r, id)) then O.touch(code) end
end
local put_waiting = O.put_waiting

-- A waiting task left its partition (cancelled): the caller has removed its member or counted it stale.
function O.leave_waiting(r)
    O.count('waiting', -1)
    O.readyat_remove(r.ready)
    O.forget(r.code)
    if O.size(r.code) <= 0 then
        O.drop_partition(r.code)
    else
        O.touch(r.code)
    end
end
local leave_waiting = O.leave_waiting

-- An in-flight task leaves the consumer's hands (its record is rewritten by the caller).
-- lease_kept: the caller deletes the lease itself (one HDEL for many).
function O.leave_flight(id, r, m, lease_kept)
    if not lease_kept then O.call('HDEL', O.holding_key(r.holder), id) end
    if O.controlled() then O.uncontrol({ id }, 1, 1) end
    if O.limits() then O.flight_out(r.code) end
    if O.is_ordered(r.code) then O.call('ZREM', O.flight_key(r.code), m or O.member(r, id)) end
end
local leave_flight = O.leave_flight

function O.release_lock_if_done(consumer, code)
    if O.is_ordered(code) and O.call('HGET', O.K_LOCKS, code) == consumer
            and O.call('ZCARD', O.flight_key(code)) == 0 then
        O.call('HDEL', O.K_LOCKS, code)
        O.call('HDEL', O.K_LOCK_SINCE, code)
        O.touch(code)
    end
end
local release_lock_if_done = O.release_lock_if_done
