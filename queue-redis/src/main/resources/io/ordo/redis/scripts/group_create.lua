#!lua
-- Creates a consumer group of the queue (docs/groups.md), with the settings the queue's own view has and
-- the lowest bit (keys.lua) no group has and no unfinished deletion still clears. Called on the queue's own
-- keys. ARGV: clock, name, the most groups a queue may have, and the group whose backlog the new one gets
-- ('' for none: group_copy copies it after).
-- Reply: 1 created, 0 it exists, -1 the queue has the most groups it may, -2 a deletion (of a group of that
-- name, or whose bit it would take) has not finished (the caller finishes it, then calls again), -3 the
-- queue has no group of the backlog's name.
start(ARGV[1])
local name, most, backlog_of = ARGV[2], tonumber(ARGV[3]), ARGV[4] or ''
local groups = O.groups()
local taken, source = {}, backlog_of == ''
for _, g in ipairs(groups) do
    if g[1] == name then return 0 end
    if g[1] == backlog_of then source = true end
    taken[g[2]] = true
end
if not source then return -3 end
if #groups >= most then return -1 end
local meta = O.group_prefix(name) .. 'meta'
if call('EXISTS', meta) == 1 or call('HLEN', O.PREFIX .. 'retiring') > 0 then return -2 end
local b = 0
while taken[b] do b = b + 1 end
local SETTINGS = { 'maxAttempts', 'processingTimeoutMs', 'dedupWindowMs', 'heartbeatTtlMs', 'maxPayloadBytes', 'limits',
    'deadLetterCaps', 'results' }
local values = call('HMGET', K_META, unpack(SETTINGS))
local fields = { 'group', '1', 'bit', tostring(b) }
for i, field in ipairs(SETTINGS) do
    if values[i] then
        fields[#fields + 1] = field
        fields[#fields + 1] = values[i]
    end
end
groups[#groups + 1] = { name, b }
table.sort(groups, function(x, y) return x[1] < y[1] end)
call('HSET', meta, unpack(fields))
O.list_groups(groups, K_META)
return 1
