#!lua flags=no-writes
-- Every schedule of the queue with the time it is read at. ARGV: clock. Reply: {now, id, record, id, record...}.
local NOW = start(ARGV[1])
local key = O.PREFIX .. 'schedules'
O.verify(key, 'hash')
local reply = call('HGETALL', key)
table.insert(reply, 1, NOW)
return reply
