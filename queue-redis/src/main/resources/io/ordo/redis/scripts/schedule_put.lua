#!lua
-- Creates or replaces a schedule (docs/semantics.md, "Schedules"). The queue's `schedules` hash maps a
-- schedule's id to its record: anchor and last slot handled (>i8i8), then its definition, which only Java
-- reads. A new schedule's slots start at its start, or now; a replaced one keeps its anchor (unless given a
-- start) and the slots it handled. ARGV: clock, id, definition, start ms or '', the most schedules a queue
-- keeps. Reply: 1 created, 0 replaced, -1 refused (the queue keeps that many already).
local NOW = start(ARGV[1])
local id, definition, start_at, most = ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5])
local key = O.PREFIX .. 'schedules'
O.verify(key, 'hash')
local old = call('HGET', key, id)
local anchor, last
if old then
    local old_anchor, old_last = struct.unpack('>i8i8', old)
    anchor = start_at ~= '' and tonumber(start_at) or old_anchor
    last = math.max(old_last, anchor - 1)
else
    if call('HLEN', key) >= most then return -1 end
    anchor = start_at ~= '' and tonumber(start_at) or NOW
    last = anchor - 1
end
call('HSET', key, id, struct.pack('>i8i8', anchor, last) .. definition)
if old then return 0 end
return 1
