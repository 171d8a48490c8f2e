#!lua flags=no-writes
-- One page of dead letters, oldest first. Reply: {total, then id and record of each}.
local offset = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])

local reply = { call('ZCARD', K_DEAD) }
for _, id in ipairs(call('ZRANGE', K_DEAD, offset, offset + limit - 1)) do
    reply[#reply + 1] = id
    reply[#reply + 1] = call('HGET', K_TASKS, id)
end
return reply
