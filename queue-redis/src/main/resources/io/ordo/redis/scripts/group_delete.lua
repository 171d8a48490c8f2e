#!lua flags=allow-oom
-- Deletes a consumer group (docs/groups.md), a bounded chunk per call, so that no call holds the server for
-- long however much the group holds. The first call takes the group off the queue's list and its mark off
-- its meta, and notes its bit in the queue's `retiring` (bit -> scan cursor): from then on no publish
-- reaches it and every call on it fails. Each call then deletes keys of the group, then clears the bit from
-- a slice of the shared records (deleting those no group holds any more). The caller calls again until
-- the reply says done. Called on the queue's own keys. ARGV: clock, name.
-- Reply: {1 when the group was listed (else 0), 1 when nothing of it is left (else 0)}.
start(ARGV[1])
local name = ARGV[2]
local groups, kept, listed = O.groups(), {}, nil
for _, g in ipairs(groups) do
    if g[1] == name then listed = g else kept[#kept + 1] = g end
end
local retiring_key = O.PREFIX .. 'retiring'
local shared_key = O.PREFIX .. 'shared'
O.verify(retiring_key, 'hash')
O.verify(shared_key, 'hash')
local meta = O.group_prefix(name) .. 'meta'
O.verify(meta, 'hash')
local budget = O.GROUP_DELETE_CHUNK

-- Clears retiring bits from a slice of the shared records; true when no bit is retiring any more.
local function retire_slice()
    local retiring = call('HGETALL', retiring_key)
    if #retiring == 0 then return true end
    local b, cursor = tonumber(retiring[1]), retiring[2]
    local page = call('HSCAN', shared_key, cursor, 'COUNT', budget)
    local clear = bit.bnot(bit.lshift(1, b))
    local rewrite, gone = {}, {}
    for i = 1, #page[2], 2 do
        local s = page[2][i + 1]
        local mask = struct.unpack('>i4', s)
        local left = bit.band(mask, clear)
        if left ~= mask then
            if left == 0 then
                gone[#gone + 1] = page[2][i]
            else
                rewrite[#rewrite + 1] = page[2][i]
                rewrite[#rewrite + 1] = struct.pack('>i4', left) .. string.sub(s, 5)
            end
        end
    end
    if #rewrite > 0 then call('HSET', shared_key, unpack(rewrite)) end
    if #gone > 0 then call('HDEL', shared_key, unpack(gone)) end
    if page[1] == '0' then call('HDEL', retiring_key, retiring[1]) else call('HSET', retiring_key, retiring[1], page[1]) end
    return #retiring == 2 and page[1] == '0'
end

-- Off the list, its bit retiring (no new group takes it until every shared record is cleared of it).
local function unlist()
    if not listed then return end
    O.list_groups(kept, K_META)
    call('HSET', retiring_key, tostring(listed[2]), '0')
end
if call('EXISTS', meta) == 0 then
    unlist()
    return { listed and 1 or 0, retire_slice() and 1 or 0 }
end
O.begin({ meta }, true) -- the group's keys from here on; all that is read comes before the first write
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
end
return { listed and 1 or 0, 0 }
