#!lua flags=allow-oom
-- Deletes a consumer group (docs/groups.md), a bounded chunk of its keys per call, so that no call holds
-- the server for long however much the group holds. The first call takes the group off the queue's list
-- and its mark off its meta: from then on no publish reaches it and every call on it fails. The caller
-- calls again until the reply says done. Called on the queue's own keys. ARGV: clock, name.
-- Reply: {1 when the group was listed (else 0), 1 when none of its keys is left (else 0)}.
start(ARGV[1])
local name = ARGV[2]
local names, kept, listed = O.group_names(), {}, 0
for _, n in ipairs(names) do
    if n == name then listed = 1 else kept[#kept + 1] = n end
end
local function unlist()
    if listed == 0 then return end
    if #kept > 0 then call('HSET', K_META, 'groups', table.concat(kept, ',')) else call('HDEL', K_META, 'groups') end
end
local meta = O.group_prefix(name) .. 'meta'
O.verify(meta, 'hash')
if call('EXISTS', meta) == 0 then
    unlist()
    return { listed, 1 }
end
O.begin({ meta }, true) -- the group's keys from here on; all that is read comes before the first write
local budget = O.GROUP_DELETE_CHUNK
-- the partitions that exist (in `ready` or `turns`), the ordered ones in flight (`locks`), the consumers
local ready = call('ZRANGE', O.K_READY, 0, budget - 1)
local turns = call('HRANDFIELD', O.K_TURNS, budget)
local locks = call('HRANDFIELD', O.K_LOCKS, budget)
local consumers = call('ZRANGE', O.K_CONSUMERS, 0, budget - 1)
local doomed = {}
local function partition_keys(code)
    doomed[#doomed + 1] = O.run_key(code)
    doomed[#doomed + 1] = O.rest_key(code)
    if O.is_ordered(code) then doomed[#doomed + 1] = O.flight_key(code) end
end
for _, code in ipairs(ready) do partition_keys(code) end
for _, code in ipairs(turns) do partition_keys(code) end
for _, code in ipairs(locks) do doomed[#doomed + 1] = O.flight_key(code) end
for _, consumer in ipairs(consumers) do doomed[#doomed + 1] = O.holding_key(consumer) end

unlist()
call('HDEL', meta, 'group')
if #ready > 0 then call('ZREM', O.K_READY, unpack(ready)) end
if #turns > 0 then call('HDEL', O.K_TURNS, unpack(turns)) end
if #locks > 0 then call('HDEL', O.K_LOCKS, unpack(locks)) end
if #consumers > 0 then call('ZREM', O.K_CONSUMERS, unpack(consumers)) end
if #doomed > 0 then call('UNLINK', unpack(doomed)) end
if #ready < budget and #turns < budget and #locks < budget and #consumers < budget then
    -- nothing that names a key of a partition or consumer is left: the fixed keys go, meta last
    local fixed = O.key_sets[meta]
    local keys = {}
    for i = 2, #O.KINDS do keys[#keys + 1] = fixed[i] end
    call('UNLINK', unpack(keys))
    call('UNLINK', meta)
    return { listed, 1 }
end
return { listed, 0 }
