#!lua flags=allow-oom
-- Lifts a partition's block at once.
local clock = ARGV[1]
local code = ARGV[2]

local NOW = start(clock)
O.verify_fixed()
O.verify_partition(code)
call('ZREM', K_BLOCKED, code)
O.any_blocked = nil
touch(code)
finish()
return 1
