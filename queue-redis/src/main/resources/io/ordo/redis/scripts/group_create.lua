#!lua
-- Creates a consumer group of the queue (docs/groups.md), with the settings the queue's own view has.
-- Called on the queue's own keys. ARGV: clock, name, the most groups a queue may have.
-- Reply: 1 created, 0 it exists, -1 the queue has the most groups it may, -2 the deletion of a group of
-- that name has not finished (the caller finishes it, then calls again).
start(ARGV[1])
local name, most = ARGV[2], tonumber(ARGV[3])
local names = O.group_names()
for _, listed in ipairs(names) do
    if listed == name then return 0 end
end
if #names >= most then return -1 end
local meta = O.group_prefix(name) .. 'meta'
if call('EXISTS', meta) == 1 then return -2 end
local SETTINGS = { 'maxAttempts', 'processingTimeoutMs', 'dedupWindowMs', 'heartbeatTtlMs', 'maxPayloadBytes', 'limits' }
local values = call('HMGET', K_META, unpack(SETTINGS))
local fields = { 'group', '1' }
for i, field in ipairs(SETTINGS) do
    if values[i] then
        fields[#fields + 1] = field
        fields[#fields + 1] = values[i]
    end
end
names[#names + 1] = name
table.sort(names)
call('HSET', meta, unpack(fields))
call('HSET', K_META, 'groups', table.concat(names, ','))
return 1
