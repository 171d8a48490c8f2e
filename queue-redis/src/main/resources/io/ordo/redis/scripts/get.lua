#!lua flags=no-writes
-- A task's record, if it exists, and its lease when a consumer holds it.
-- Reply: {now}, {now, record} or {now, record, holder, lease}.
local clock = ARGV[1]
local id = ARGV[2]

local NOW = start(clock)
local record = O.load_records({ id })[1]
if not record then return { NOW } end
local held = string.byte(record, 1) % 4 == STATE_WAITING and holders({ id })[id]
if held then return { NOW, record, held[1], lease_time(held[2]) } end
return { NOW, record }
