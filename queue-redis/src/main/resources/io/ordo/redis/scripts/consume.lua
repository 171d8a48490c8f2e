#!lua flags=allow-oom
-- Takes up to max due tasks for a consumer in queue order (docs/semantics.md, consume): the eligible
-- partition with the highest head priority, then the lowest turn; one task from a regular partition,
-- the consecutive ready run from an ordered one (which it locks). Also registers the consumer.
-- Reply: {ms until something may fall due or -1, then id and record of each task taken}.
-- allow-oom: consuming (then acking) is how a full server gets memory back.
local clock = ARGV[1]
local consumer = ARGV[2]
local max = tonumber(ARGV[3])

local NOW = start(clock)
local expires_at = NOW + settings().heartbeat_ttl
local current = call('ZSCORE', K_CONSUMERS, consumer)
if not current or tonumber(current) < expires_at then
    call('ZADD', K_CONSUMERS, expires_at, consumer)
end
call('HSET', K_HEARTBEATS, consumer, NOW)
if call('HEXISTS', K_META, 'paused') == 1 then
    return { -1 }
end

promote_due()
for _, code in ipairs(O.touched_order) do refresh(code) end
O.touched, O.touched_order = {}, {}

local reply = { -1 }
local held = consumer_key(consumer)
local taken = 0
-- The new records and index entries of the tasks taken, written with one command each after the loop
-- (nothing in the loop reads them back).
local records, leased, holding = {}, {}, {}

-- Returns whether the partition still exists.
local function take(code, m, r, from_run)
    local id = member_id(m)
    part_pop(code, m, from_run)
    local remains = leave_waiting(r)
    r.attempts = r.attempts + 1
    r.state, r.at, r.holder = STATE_IN_FLIGHT, NOW, consumer
    local record = encode(r)
    records[#records + 1] = id
    records[#records + 1] = record
    leased[#leased + 1] = NOW
    leased[#leased + 1] = id
    holding[#holding + 1] = r.seq
    holding[#holding + 1] = id
    if is_ordered(code) then call('ZADD', flight_key(code), 0, m) end
    reply[#reply + 1] = id
    reply[#reply + 1] = record
    taken = taken + 1
    return remains
end

-- The best partitions, read together: {code, score, code, score, ...} from `ready`, in order. Only the
-- partitions served change in `ready` during the loop: each goes back with a new turn, usually behind
-- all the others; when one went back ahead of the next candidate (its new head has a higher
-- priority), `ready` is read again.
local candidates, next_candidate = {}, 1
local readded -- the lowest score a served partition went back with since `ready` was read
local reading = 4 -- how many to read: doubled at each read, as an ordered partition may give many tasks
local function best_partition()
    if next_candidate < #candidates and readded and readded < tonumber(candidates[next_candidate + 1]) then
        candidates = {}
    end
    if next_candidate > #candidates then
        candidates = call('ZRANGE', K_READY, 0, math.max(math.min(max - taken, reading), 1) - 1, 'WITHSCORES')
        next_candidate, readded, reading = 1, nil, 2 * reading
    end
    local code = candidates[next_candidate]
    next_candidate = next_candidate + 2
    return code
end

-- The partition was eligible, so it is neither blocked nor locked: only its head and turn change.
while taken < max do
    local code = best_partition()
    if not code then break end
    local remains
    if is_ordered(code) then
        while taken < max do
            local m, r, from_run = part_head(code, true)
            if not m or r.ready > NOW then break end
            remains = take(code, m, r, from_run)
        end
        call('HSET', K_LOCKS, code, consumer)
        call('HSET', K_LOCK_SINCE, code, NOW)
    else
        remains = take(code, part_head(code, true))
    end
    local turn = next_counter('turn')
    local m
    if remains then
        set_turn(code, turn)
        if not is_ordered(code) then m = part_head(code) end
    end
    if m then
        local score = (1000 - member_priority(m)) * PRIORITY_SPAN + turn
        call('ZADD', K_READY, score, code)
        if not readded or score < readded then readded = score end
    else
        call('ZREM', K_READY, code) -- emptied, only delayed tasks left, or locked
    end
end

if taken > 0 then -- at most MAX_CONSUME tasks: 2,000 arguments, well within unpack's limit
    call('HSET', K_TASKS, unpack(records))
    call('ZADD', K_LEASED, unpack(leased))
    call('ZADD', held, unpack(holding))
end

local next_due
for _, key in ipairs({ K_DELAYED, K_WAKE, K_BLOCKED }) do
    local first = call('ZRANGE', key, 0, 0, 'WITHSCORES')[2]
    if first and (not next_due or tonumber(first) < next_due) then next_due = tonumber(first) end
end
if next_due then reply[1] = math.max(next_due - NOW, 0) end
O.touched, O.touched_order = {}, {}
finish()
return reply
