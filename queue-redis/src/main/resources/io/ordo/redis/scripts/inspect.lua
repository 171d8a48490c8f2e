#!lua flags=no-writes
-- What an operator looks at (docs/semantics.md, inspect): the partitions with the most waiting tasks,
-- the ordered locks, the blocks in force and the registered consumers, each list cut at limit. Names
-- sort as Java sorts them (java_order_key). An operator's read, in stages the store puts together, each
-- call bounded so that no inspection holds the server for long (docs/redis-design.md, "Inspect"):
-- stage 'p', cursor: a chunk of partitions (of `ready` by rank, then of `turns` by HSCAN) and their sizes.
--   Reply: {next cursor ('' when done), (code, waiting) * up to limit}: the chunk's busiest.
-- stage 'd', cursor, codes...: a chunk of the tasks not ready yet (`delayed` by rank, from the first one
--   after now), counted per named partition. Reply: {next cursor ('' when done), count per code}.
-- stage 'o': {now, partitions in all,
--   locks in all, n, (code, holder, since, in flight) * n,
--   blocks in all, n, (code, until) * n,
--   consumers in all, n, (name, last heartbeat, expires at, in flight) * n}.
local clock = ARGV[1]
local limit = tonumber(ARGV[2])
local stage = ARGV[3]
local cursor = ARGV[4]
local FIRST_CODE = 5
local PARTITION_CHUNK, TASK_CHUNK = 250, 500 -- each call well under 10 ms at a million (redis-design.md)

local NOW = start(clock)

if stage == 'p' then
    -- a partition's waiting tasks are its list's members (less the cancelled ones) and its parked tasks
    local codes, next_cursor
    if cursor == '' or string.sub(cursor, 1, 1) == 'r' then
        local from = cursor == '' and 0 or tonumber(string.sub(cursor, 2))
        codes = call('ZRANGE', K_READY, from, from + PARTITION_CHUNK - 1)
        next_cursor = #codes < PARTITION_CHUNK and 't0' or 'r' .. int(from + PARTITION_CHUNK)
    else
        local scanned = call('HSCAN', K_TURNS, string.sub(cursor, 2), 'COUNT', PARTITION_CHUNK)
        codes = {}
        for i = 1, #scanned[2], 2 do codes[#codes + 1] = scanned[2][i] end
        next_cursor = scanned[1] == '0' and '' or 't' .. scanned[1]
    end
    local reply = { next_cursor }
    if #codes == 0 then return reply end
    local parked_of = call('HMGET', K_PARKED, unpack(codes))
    local stale_of = call('HMGET', K_STALE, unpack(codes))
    local rows = {}
    for i, code in ipairs(codes) do
        -- only codes with 4-byte UTF-8 sequences need the rewritten key to sort as Java sorts them
        local key = string.find(code, '[\240-\244]') and java_order_key(code) or code
        rows[i] = { code = code, waiting = call('LLEN', run_key(code)) - (tonumber(stale_of[i]) or 0)
            + (tonumber(parked_of[i]) or 0), key = key }
    end
    table.sort(rows, function(a, b)
        if a.waiting ~= b.waiting then return a.waiting > b.waiting end
        return bytes_before(a.key, b.key)
    end)
    for i = 1, math.min(#rows, limit) do
        reply[#reply + 1] = rows[i].code
        reply[#reply + 1] = rows[i].waiting
    end
    return reply
end

-- The partition of a waiting task's record, read without copying its payload (layout: record.lua).
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

if stage == 'd' then
    -- every waiting task that is not ready is in `delayed` with its readyAt (those due but not yet made
    -- ready by a consume are in it too, with an earlier score: the ranks before the first one after now)
    local from = cursor == '' and call('ZCOUNT', K_DELAYED, '-inf', NOW) or tonumber(cursor)
    local ids = call('ZRANGE', K_DELAYED, from, from + TASK_CHUNK - 1)
    local counts, index = {}, {}
    for i = FIRST_CODE, #ARGV do
        counts[i - FIRST_CODE + 1] = 0
        index[ARGV[i]] = i - FIRST_CODE + 1
    end
    if #ids > 0 and #counts > 0 then
        for _, record in ipairs(O.load_records(ids)) do
            local at = record and index[waiting_code(record)]
            if at then counts[at] = counts[at] + 1 end
        end
    end
    local reply = { #ids < TASK_CHUNK and '' or int(from + TASK_CHUNK) }
    for i = 1, #counts do reply[#reply + 1] = counts[i] end
    return reply
end

local reply = { NOW, call('ZCARD', K_READY) + call('HLEN', K_TURNS) }

local function append(total, rows, width, fields)
    reply[#reply + 1] = total
    local n = math.min(#rows, limit)
    reply[#reply + 1] = n
    for i = 1, n do
        for j = 1, width do reply[#reply + 1] = rows[i][fields[j]] end
    end
end

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
