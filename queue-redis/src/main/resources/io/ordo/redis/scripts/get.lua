#!lua flags=no-writes
-- A task's record, if it exists, and its lease when a consumer holds it, with what task control says of it
-- (docs/task-control.md).
-- Reply: {now}, {now, record}, {now, record, kept until, result ('' when none)} for a completed task, or {now,
-- record, holder, lease time, deadline (-1: none), cancellation asked (1/0), progress (its control entry past
-- the holder, '' when none)} for a task in flight.
local clock = ARGV[1]
local id = ARGV[2]

local NOW = start(clock)
local record = O.load_records({ id })[1]
if not record then return { NOW } end
local state = string.byte(record, 1) % 4
if state == STATE_COMPLETED then
    return { NOW, record, tonumber(call('ZSCORE', K_COMPLETED, id)) or NOW, call('HGET', K_RESULTS, id) or '' }
end
local held = state == STATE_WAITING and holders({ id })[id]
if not held then return { NOW, record } end
return O.append_held({ NOW, record }, id, held[1], held[2])
