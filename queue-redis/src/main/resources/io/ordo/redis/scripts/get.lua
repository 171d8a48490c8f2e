#!lua flags=no-writes
-- A task's record, if it exists. Reply: {now} or {now, record}.
local clock = ARGV[1]
local id = ARGV[2]

NOW = clock_now(clock)
return { NOW, call('HGET', K_TASKS, id) }
