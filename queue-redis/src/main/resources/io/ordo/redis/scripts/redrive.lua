#!lua
-- Sends dead letters back to their partitions. Reply: per id 1 redriven, 0 unknown.
local clock = ARGV[1]
local FIRST_ID = 2

local NOW = start(clock)
O.verify_fixed()
O.unsaved = {} -- the records are written with one HSET by finish()
for i = FIRST_ID, #ARGV do
    local r = load(ARGV[i])
    if r then O.verify_joining(r.code) end
end
local reply = {}
for i = FIRST_ID, #ARGV do
    reply[#reply + 1] = redrive(ARGV[i], load(ARGV[i])) and 1 or 0 -- (read again: an id named twice goes back once)
end
finish()
return reply
