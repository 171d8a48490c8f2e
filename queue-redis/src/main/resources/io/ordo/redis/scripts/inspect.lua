#!lua flags=no-writes
-- What an operator looks at (docs/semantics.md, inspect): the partitions with the most waiting tasks,
-- the ordered locks, the blocks in force and the registered consumers, each list cut at limit.
-- Reads every partition, lock, block, consumer and not-ready task once: an operator's read, not a
-- worker's (docs/redis-design.md). Names sort as Java sorts them (java_order_key).
-- Reply: {now,
--   partitions in all, n, (code, waiting, due) * n,
--   locks in all, n, (code, holder, since, in flight) * n,
--   blocks in all, n, (code, until) * n,
--   consumers in all, n, (name, last heartbeat, expires at, in flight) * n}.
local clock = ARGV[1]
local limit = tonumber(ARGV[2])

local NOW = start(clock)
local reply = { NOW }

local function append(total, rows, width, fields)
    reply[#reply + 1] = total
    local n = math.min(#rows, limit)
    reply[#reply + 1] = n
    for i = 1, n do
        for j = 1, width do reply[#reply + 1] = rows[i][fields[j]] end
    end
end

-- Partitions: the `limit` busiest, kept in order while reading the sizes; a partition that does not beat
-- the last one listed costs one comparison. Every partition that exists is in `ready` or in `turns`; its
-- waiting tasks are its list's members (less the cancelled ones) and its parked tasks.
local parked_of, stale_of = {}, {}
local pairs_read = call('HGETALL', K_PARKED)
for i = 1, #pairs_read, 2 do parked_of[pairs_read[i]] = tonumber(pairs_read[i + 1]) end
pairs_read = call('HGETALL', K_STALE)
for i = 1, #pairs_read, 2 do stale_of[pairs_read[i]] = tonumber(pairs_read[i + 1]) end
local sizes = call('ZRANGE', K_READY, 0, -1)
for _, code in ipairs(call('HKEYS', K_TURNS)) do sizes[#sizes + 1] = code end
local busiest, listed_count = {}, 0
-- Ties go by Java's order of the codes; only codes with 4-byte UTF-8 sequences need the rewritten key.
local function busier(waiting, code, p)
    if waiting ~= p.waiting then return waiting > p.waiting end
    if p.wide or string.find(code, '[\240-\244]') then
        return bytes_before(java_order_key(code), java_order_key(p.code))
    end
    return bytes_before(code, p.code)
end
for _, code in ipairs(sizes) do
    local waiting = call('LLEN', run_key(code)) - (stale_of[code] or 0) + (parked_of[code] or 0)
    if listed_count < limit or busier(waiting, code, busiest[listed_count]) then
        local lo, hi = 1, listed_count + 1
        while lo < hi do
            local mid = math.floor((lo + hi) / 2)
            if busier(waiting, code, busiest[mid]) then hi = mid else lo = mid + 1 end
        end
        table.insert(busiest, lo, { code = code, waiting = waiting, wide = string.find(code, '[\240-\244]') })
        if listed_count < limit then listed_count = listed_count + 1 else busiest[limit + 1] = nil end
    end
end

-- The partition of a waiting task's record, read without copying its payload (layout: common.lua).
local function waiting_code(s)
    local flags = string.byte(s, 1)
    if flags % 4 ~= STATE_WAITING then return nil end
    local pos = 14
    if has(flags, FLAG_PRIORITY) then pos = pos + 2 end
    if has(flags, FLAG_ATTEMPTS) then pos = pos + 2 end
    if has(flags, FLAG_DUE) then pos = pos + 6 end
    if has(flags, FLAG_READY) then pos = pos + 6 end
    if has(flags, FLAG_ERROR) then pos = pos + 2 + struct.unpack('>I2', s, pos) end
    return string.sub(s, pos + 2, pos + 1 + struct.unpack('>I2', s, pos))
end

-- Every waiting task that is not ready is in `delayed` with its readyAt (those due but not yet moved by a
-- consume are in it too, with an earlier score).
local listed = {}
for _, p in ipairs(busiest) do
    p.due = p.waiting
    listed[p.code] = p
end
if listed_count > 0 then
    for _, id in ipairs(call('ZRANGEBYSCORE', K_DELAYED, '(' .. int(NOW), '+inf')) do
        local record = call('HGET', K_TASKS, id)
        local p = record and listed[waiting_code(record)]
        if p then p.due = p.due - 1 end
    end
end
append(#sizes, busiest, 3, { 'code', 'waiting', 'due' })

-- Locks, longest held first.
local held = call('HGETALL', K_LOCKS)
local locks = {}
for i = 1, #held, 2 do
    local code = held[i]
    local since = tonumber(call('HGET', K_LOCK_SINCE, code)) or NOW
    locks[#locks + 1] = { code = code, holder = held[i + 1], since = since, key = java_order_key(code) }
end
table.sort(locks, function(a, b)
    if a.since ~= b.since then return a.since < b.since end
    return bytes_before(a.key, b.key)
end)
for i = 1, math.min(#locks, limit) do locks[i].n = call('ZCARD', flight_key(locks[i].code)) end
append(#locks, locks, 4, { 'code', 'holder', 'since', 'n' })

-- Blocks in force, soonest unblocked first: the first `limit` by time and every block tied with the last
-- of them, sorted again by Java's order of the codes.
local after_now = '(' .. int(NOW)
local blocks = {}
local first = call('ZRANGEBYSCORE', K_BLOCKED, after_now, '+inf', 'WITHSCORES', 'LIMIT', 0, limit)
if #first > 0 then
    local until_last = first[#first]
    local upto = call('ZRANGEBYSCORE', K_BLOCKED, after_now, until_last, 'WITHSCORES')
    for i = 1, #upto, 2 do
        blocks[#blocks + 1] = { code = upto[i], ends = tonumber(upto[i + 1]), key = java_order_key(upto[i]) }
    end
    table.sort(blocks, function(a, b)
        if a.ends ~= b.ends then return a.ends < b.ends end
        return bytes_before(a.key, b.key)
    end)
end
append(call('ZCOUNT', K_BLOCKED, after_now, '+inf'), blocks, 2, { 'code', 'ends' })

-- Consumers, latest heartbeat first; dead ones stay until a reclaim removes them.
local registered = call('ZRANGE', K_CONSUMERS, 0, -1, 'WITHSCORES')
local ttl = settings().heartbeat_ttl
local consumers = {}
for i = 1, #registered, 2 do
    local name, expires_at = registered[i], tonumber(registered[i + 1])
    -- registered before heartbeat times were kept: as if by a consume with the queue's TTL
    local seen = tonumber(call('HGET', K_HEARTBEATS, name)) or (expires_at - ttl)
    consumers[#consumers + 1] = { name = name, seen = seen, expires = expires_at, key = java_order_key(name) }
end
table.sort(consumers, function(a, b)
    if a.seen ~= b.seen then return a.seen > b.seen end
    return bytes_before(a.key, b.key)
end)
for i = 1, math.min(#consumers, limit) do consumers[i].n = call('HLEN', holding_key(consumers[i].name)) end
append(#consumers, consumers, 4, { 'name', 'seen', 'expires', 'n' })

return reply
