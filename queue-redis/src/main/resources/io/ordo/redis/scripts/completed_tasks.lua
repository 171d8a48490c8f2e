#!lua flags=no-writes
-- Completed tasks kept with their results (TaskListing.completedTasks): `completed` by rank from its end, the
-- latest to go first (ties by id, descending), from `offset`, at most `limit`. Each result is read to tell its
-- size: HSTRLEN would be a command new to every deployment's ACL, and a page reads at most `limit` results of
-- at most maxResultBytes each, as a page of delayed tasks reads their payloads.
-- Reply: {now, total, retention (ms, 0: results are not kept), then id, record, kept until and result size of
-- each}.
local clock = ARGV[1]
local offset, limit = tonumber(ARGV[2]), tonumber(ARGV[3])

local NOW = start(clock)
local scored = call('ZRANGE', K_COMPLETED, offset, offset + limit - 1, 'REV', 'WITHSCORES')
local ids, kept_until = {}, {}
for i = 1, #scored, 2 do
    ids[#ids + 1] = scored[i]
    kept_until[#kept_until + 1] = tonumber(scored[i + 1])
end
local reply = { NOW, call('ZCARD', K_COMPLETED), O.results().retention }
for k, record in ipairs(O.load_records(ids)) do
    if record then
        reply[#reply + 1] = ids[k]
        reply[#reply + 1] = record
        reply[#reply + 1] = kept_until[k]
        reply[#reply + 1] = #(call('HGET', K_RESULTS, ids[k]) or '')
    end
end
return reply
