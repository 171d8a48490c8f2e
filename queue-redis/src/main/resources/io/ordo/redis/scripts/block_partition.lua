#!lua
-- Blocks a partition until now + duration (replacing any block); it need not hold tasks.
local clock = ARGV[1]
local code = ARGV[2]
local duration = tonumber(ARGV[3])

local NOW = start(clock)
O.verify_fixed()
O.verify_partition(code)
call('ZADD', K_BLOCKED, NOW + duration, code)
note_timer(NOW + duration)
O.any_blocked = nil
touch(code)
finish()
return 1
