#!lua flags=no-writes
-- Waiting tasks not ready when they arrived, by readyAt then id (TaskListing.delayedTasks): `delayed` by rank,
-- from `offset`, at most `limit`. A task whose time has come stays in it until a consume (or a wake) moves it
-- into its partition. Reply: {now, total, then id and record of each}.
local clock = ARGV[1]
local offset, limit = tonumber(ARGV[2]), tonumber(ARGV[3])

local NOW = start(clock)
local ids = call('ZRANGE', K_DELAYED, offset, offset + limit - 1)
local reply = { NOW, call('ZCARD', K_DELAYED) }
for k, record in ipairs(O.load_records(ids)) do
    if record then
        reply[#reply + 1] = ids[k]
        reply[#reply + 1] = record
    end
end
return reply
