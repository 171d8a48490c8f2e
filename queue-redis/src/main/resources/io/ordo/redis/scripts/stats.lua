#!lua flags=no-writes
-- Counts and lag. Reply: {ready, delayed, in flight, dead, active partitions, locked, blocked,
-- live consumers, oldest due age, published, acked, dead-lettered, paused}.
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
return {
    waiting - delayed, delayed, in_flight, call('ZCARD', K_DEAD), call('ZCARD', K_READY) + call('HLEN', K_TURNS),
    call('HLEN', K_LOCKS), call('ZCOUNT', K_BLOCKED, '(' .. int(NOW), '+inf'),
    call('ZCOUNT', K_CONSUMERS, '(' .. int(NOW), '+inf'), lag,
    counter('publishedTotal'), counter('ackedTotal'), counter('deadLetteredTotal'),
    settings().paused and 1 or 0,
}
