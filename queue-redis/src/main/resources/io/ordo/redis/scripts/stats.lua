#!lua flags=no-writes
-- Counts and lag. Reply: {ready, delayed, in flight, dead, active partitions, locked, blocked, capped,
-- throttled, live consumers, oldest due age, published, acked, dead-lettered, paused, dead letters dropped,
-- completed tasks kept}.
local clock = ARGV[1]

local NOW = start(clock)
local waiting = counter('waiting')
local delayed = call('ZCOUNT', K_DELAYED, '(' .. int(NOW), '+inf')
local oldest = call('ZRANGE', K_READYAT, 0, 0, 'WITHSCORES')[2]
local lag = 0
if oldest and tonumber(oldest) <= NOW then lag = NOW - tonumber(oldest) end
local in_flight = 0
for _, consumer in ipairs(call('ZRANGE', K_CONSUMERS, 0, -1)) do
    in_flight = in_flight + call('HLEN', holding_key(consumer))
end
-- Partitions with tasks waiting that a cap holds back (as many in flight as it allows) or their rate limit
-- (less than one token now). Read only while the queue has caps or limits: the in-flight counts are bounded
-- by the tasks in flight, the buckets by the partitions served within a bucket's refill time.
local capped, throttled = 0, 0
local limits = O.limits()
if limits then
    local waits = O.partition_exists -- (a partition with tasks waiting exists)
    local fields = call('HGETALL', K_INFLIGHT)
    for i = 1, #fields, 2 do
        local code = fields[i]
        if code ~= '' then -- ('' holds the queue's count)
            local count, units = O.gate_state(limits.pr, fields[i + 1])
            local cap = limits.counting and O.gate().cap_of(code) or 0
            if cap > 0 and count >= cap and waits(code) then capped = capped + 1 end
            if limits.pr and units < limits.pr.per and waits(code) then throttled = throttled + 1 end
        end
    end
end
return {
    waiting - delayed, delayed, in_flight, call('ZCARD', K_DEAD), call('ZCARD', K_READY) + call('HLEN', K_TURNS),
    call('HLEN', K_LOCKS), call('ZCOUNT', K_BLOCKED, '(' .. int(NOW), '+inf'), capped, throttled,
    call('ZCOUNT', K_CONSUMERS, '(' .. int(NOW), '+inf'), lag,
    counter('publishedTotal'), counter('ackedTotal'), counter('deadLetteredTotal'),
    settings().paused and 1 or 0, counter('deadLettersDroppedTotal'), call('ZCARD', K_COMPLETED),
}
