#!lua flags=no-writes
-- A task's record, if it exists. Reply: {now} or {now, record}.
local clock = ARGV[1]
local id = ARGV[2]

local NOW = start(clock)
return { NOW, call('HGET', K_TASKS, id) }
