#!lua flags=allow-oom
-- Delivers again after a pause, and wakes a blocked consumer if work is waiting.
local clock = ARGV[1]

local NOW = start(clock)
O.verify_fixed()
call('HDEL', K_META, 'paused')
O.new_due_time = true -- tasks may have fallen due during the pause: a woken consumer applies them
finish()
return 1
