#!lua flags=no-writes
-- The queue's event log after a seq (TaskEvents.events; event_log.lua): at most `limit` events, oldest first.
-- The first kept is eventSeq - LLEN + 1, so the read is one LRANGE at its offset.
-- Reply: {latest seq, oldest seq kept, then the events from max(after + 1, oldest) on}.
local after, limit = tonumber(ARGV[1]), tonumber(ARGV[2])

local latest = counter('eventSeq')
local oldest = latest - call('LLEN', K_EVENTS) + 1
local reply = { latest, oldest }
local from = math.max(after + 1, oldest)
if from <= latest then
    for _, event in ipairs(call('LRANGE', K_EVENTS, from - oldest, from - oldest + limit - 1)) do
        reply[#reply + 1] = event
    end
end
return reply
