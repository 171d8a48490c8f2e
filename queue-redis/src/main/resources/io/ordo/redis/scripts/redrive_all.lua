#!lua
-- Sends every dead letter back, oldest first. Reply: how many.
local clock = ARGV[1]

local NOW = start(clock)
local ids = call('ZRANGE', K_DEAD, 0, -1)
for _, id in ipairs(ids) do redrive(id) end
finish()
return #ids
