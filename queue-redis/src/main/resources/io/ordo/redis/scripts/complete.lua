#!lua flags=allow-oom
-- Acks tasks the consumer holds, each with its result, kept with the completed task while the queue keeps
-- results (results.lua); else an ack. Every result is checked against the queue's limit before anything is
-- written. ARGV: clock, consumer, then per task: id, result.
-- Reply: per id 1 acked, 0 lease lost; or {-1, index, size, limit} when a result is over the queue's limit.
local clock = ARGV[1]
local consumer = ARGV[2]
local FIRST_ID = 3

start(clock)
local limit = O.results().max_bytes
local ids, results = {}, {}
for i = FIRST_ID, #ARGV, 2 do
    local result = ARGV[i + 1]
    if #result > limit then return { -1, (i - FIRST_ID) / 2, #result, limit } end
    ids[#ids + 1] = ARGV[i]
    results[ARGV[i]] = result
end
local reply = {}
ack(consumer, ids, 1, #ids, reply, nil, results)
finish(false) -- as an ack's
return reply
