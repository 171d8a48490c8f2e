#!lua flags=allow-oom
-- Delivers again after a pause, and wakes a blocked consumer if work is waiting.
local clock = ARGV[1]

local NOW = start(clock)
O.verify_fixed()
call('HDEL', K_META, 'paused')
finish()
return 1
