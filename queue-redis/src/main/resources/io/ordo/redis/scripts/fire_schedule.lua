#!lua
-- Publishes the due slots' tasks of one schedule and advances its last slot, in one step, if its last slot
-- and its definition are still the ones the caller read (another firer may have handled the slots since,
-- or the schedule been replaced): the caller computed the slots and the tasks from them. The tasks are published exactly as publish does (publish_tasks: publish.lua's body,
-- which RedisLibrary puts before this one). ARGV: clock, id, last slot read, new last slot, SHA-1 (hex) of the
-- definition read, then the tasks as publish takes them (id, blob)... Reply: publish's ({0, outcome per task} or {1, index, size, limit}:
-- nothing written, the slots wait) or {2}: the schedule is gone, replaced, or another firer handled its slots.
local key = O.PREFIX .. 'schedules'
O.verify(key, 'hash')
local record = call('HGET', key, ARGV[2])
if not record then return { 2 } end
local anchor, last = struct.unpack('>i8i8', record)
if last ~= tonumber(ARGV[3]) or redis.sha1hex(string.sub(record, 17)) ~= ARGV[5] then return { 2 } end
local reply = { 0 }
if #ARGV > 5 then
    local tasks = { ARGV[1] }
    for i = 6, #ARGV do tasks[#tasks + 1] = ARGV[i] end
    reply = publish_tasks(tasks)
    if reply[1] ~= 0 then return reply end
end
call('HSET', key, ARGV[2], struct.pack('>i8i8', anchor, tonumber(ARGV[4])) .. string.sub(record, 17))
return reply
