-- The queue's event log (docs/task-control.md, "Event log"), while its setting keeps one: what became of its
-- tasks, one list element an event, oldest first, numbered by the counter eventSeq. A call collects its events
-- and finish() writes them with one RPUSH, then drops the oldest past the length with one LPOP: the list is never
-- longer than the setting after a call. An element: type (1 byte), at (ms, a double), the partition's length
-- (4 bytes) and code, the id's length (4 bytes) and id, then the reason (EventLogRecords decodes it). Part of
-- the library after results.lua.

-- Notes an event of task id (of partition code) for finish() to write; reason: a failure's or death's, or nil.
function O.event(kind, id, code, reason)
    if O.results().events == 0 then return end
    local pending = O.pending_events
    if not pending then
        pending = {}
        O.pending_events = pending
    end
    pending[#pending + 1] = struct.pack('>BdI4', kind, O.NOW, #code) .. code .. struct.pack('>I4', #id) .. id
        .. (reason or '')
end

-- Writes the events the call noted (the key was probed by O.verify_fixed before the call's first write).
function O.save_events()
    local pending = O.pending_events
    if not pending then return end
    O.pending_events = nil
    local length
    for from = 1, #pending, 1000 do
        length = O.call('RPUSH', O.K_EVENTS, unpack(pending, from, math.min(from + 999, #pending)))
    end
    O.count('eventSeq', #pending)
    local over = length - O.results().events
    if over > 0 then O.call('LPOP', O.K_EVENTS, O.int(over)) end
end
