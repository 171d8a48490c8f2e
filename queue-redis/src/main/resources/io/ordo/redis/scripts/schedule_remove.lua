#!lua flags=allow-oom
-- Deletes a schedule; the tasks it published stay. ARGV: clock, id. Reply: 1 deleted, 0 unknown.
local key = O.PREFIX .. 'schedules'
O.verify(key, 'hash')
return call('HDEL', key, ARGV[2])
