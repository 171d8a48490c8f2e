#!lua flags=allow-oom
-- Returns held, unprocessed tasks at once at their positions; the delivery does not count.
-- Reply: see give_back; outcomes 0 lease lost, 1 released, 2 cancelled.
local clock = ARGV[1]
local consumer = ARGV[2]
local FIRST_ID = 3

start(clock)
local ids = {}
for i = FIRST_ID, #ARGV do ids[#ids + 1] = ARGV[i] end
local reply = give_back(consumer, ids, function(id, r)
    r.attempts = r.attempts - 1
    put_waiting(id, r)
    return 1
end, 2)
finish()
return reply
