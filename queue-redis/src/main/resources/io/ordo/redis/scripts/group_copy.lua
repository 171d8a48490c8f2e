#!lua
-- Gives a new consumer group the tasks waiting in another one (docs/groups.md), a bounded page of the queue's
-- shared records per call: those the other group holds and the new one does not, but those the other group
-- has in flight or dead. Each joins the new group in its place, its attempts counted anew: the shared record
-- when the other group never changed the task, else the other group's record, made the new group's own.
-- Called on the queue's own keys; the caller calls again with the cursor until it is '0'.
-- ARGV: clock, the new group, the group whose backlog it gets, cursor ('0' to begin). Reply: {cursor}.
start(ARGV[1])
local into, from, cursor = ARGV[2], ARGV[3], ARGV[4]
local into_bit, from_bit
for _, g in ipairs(O.groups()) do
    if g[1] == into then into_bit = g[2] elseif g[1] == from then from_bit = g[2] end
end
if not into_bit or not from_bit then return { '0' } end -- either is gone: nothing more to copy
local shared_key = O.PREFIX .. 'shared'
local from_meta, into_meta = O.group_prefix(from) .. 'meta', O.group_prefix(into) .. 'meta'
O.verify(shared_key, 'hash')
local page = call('HSCAN', shared_key, cursor, 'COUNT', O.GROUP_COPY_PAGE)
local fb, ib = bit.lshift(1, from_bit), bit.lshift(1, into_bit)
local ids, values = {}, {}
for i = 1, #page[2], 2 do
    local mask = struct.unpack('>i4', page[2][i + 1])
    if bit.band(mask, fb) ~= 0 and bit.band(mask, ib) == 0 then
        ids[#ids + 1] = page[2][i]
        values[#values + 1] = page[2][i + 1]
    end
end
if #ids == 0 then return { page[1] } end

-- the other group's view of them: its own records (changed, or dead) and its holders
O.begin({ from_meta })
local own = call('HMGET', O.K_TASKS, unpack(ids))
local held = O.holders(ids)
local copies = {} -- {id, value, record table, shared (no record of the new group's own)}
for i, id in ipairs(ids) do
    local r = own[i] and O.decode(own[i])
    if not held[id] and (not r or r.state == STATE_WAITING) then
        if r then
            r.attempts, r.error, r.cause = 0, nil, nil
        end
        copies[#copies + 1] = { id, values[i], r or O.decode(string.sub(values[i], 5)), not r }
    end
end

-- into the new group: its keys checked before the first write
O.begin({ into_meta })
O.verify_fixed()
for _, c in ipairs(copies) do O.verify_joining(c[3].code) end
local marked = {}
for _, c in ipairs(copies) do
    -- a task with its own timeout: the new group's consumes look for it, as its publish made the other's
    if counter('ownTimeouts') == 0 and O.extras_timeout(c[3].tail, 3 + #c[3].code) then
        O.set_counter('ownTimeouts', 1)
    end
    O.records_shared = c[4]
    put_waiting(c[1], c[3])
    marked[#marked + 1] = c[1]
    marked[#marked + 1] = struct.pack('>i4', bit.bor(struct.unpack('>i4', c[2]), ib)) .. string.sub(c[2], 5)
end
O.records_shared = false
if #copies > 0 then
    count('publishedTotal', #copies)
    call('HSET', shared_key, unpack(marked))
end
finish()
return { page[1] }
