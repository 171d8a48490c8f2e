#!lua flags=allow-oom
-- Registers or refreshes a consumer: alive until now + ttl.
local clock = ARGV[1]
local consumer = ARGV[2]
local ttl = tonumber(ARGV[3])

local NOW = start(clock)
O.verify_fixed()
call('ZADD', K_CONSUMERS, NOW + ttl, consumer)
call('HSET', K_HEARTBEATS, consumer, NOW)
return 1
