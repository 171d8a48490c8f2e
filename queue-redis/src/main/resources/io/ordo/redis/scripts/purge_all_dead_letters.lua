#!lua flags=allow-oom
-- Deletes every dead letter. Reply: how many.
local ids = call('ZRANGE', K_DEAD, 0, -1)
for _, id in ipairs(ids) do call('HDEL', K_TASKS, id) end
call('DEL', K_DEAD)
return #ids
