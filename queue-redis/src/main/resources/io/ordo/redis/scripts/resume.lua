#!lua flags=allow-oom
-- Delivers again after a pause, and wakes a blocked consumer if work is waiting.
local clock = ARGV[1]

NOW = clock_now(clock)
call('HDEL', K_META, 'paused')
finish()
return 1
