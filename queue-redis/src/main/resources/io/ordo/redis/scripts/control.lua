-- Task control (docs/task-control.md): what is said of tasks in flight beside their leases. Part of the
-- library after finishing.lua. A task in flight has an entry in `control` (its holder, then its last
-- progress) once anything is said of it: its cancellation asked (`cancels`: id -> holder), a deadline of its
-- own (`deadlines`: by the deadline; its own timeout from its consume, or an extension), or progress. The
-- counter `controlled` counts the entries: while it is 0, which is the usual case, no call reads these keys.
-- Every entry goes when its task leaves its holder (O.uncontrol: ack, leave_flight).

function O.controlled() return O.counter('controlled') > 0 end

-- Whether the task's cancellation was asked (while it is held).
function O.cancel_requested(id)
    return O.controlled() and O.call('HEXISTS', O.K_CANCELS, id) == 1
end

-- A control entry's value: the holder's name (len(2) bytes), then the last progress, if any.
function O.control_holder_part(holder) return struct.pack('>I2', #holder) .. holder end

-- Makes the task's entry, its holder named, unless it has one.
function O.control(id, holder)
    if O.call('HEXISTS', O.K_CONTROL, id) == 0 then -- (not HSETNX: a deployment's ACL allows no new command)
        O.call('HSET', O.K_CONTROL, id, O.control_holder_part(holder))
        O.count('controlled', 1)
    end
end

-- The holder a control entry names.
function O.control_holder(value)
    local n = struct.unpack('>I2', value)
    return string.sub(value, 3, 2 + n)
end

-- The tasks ids[first..last] left their holder: nothing more is said of them.
function O.uncontrol(ids, first, last)
    if not O.controlled() then return end
    for from = first, last, O.ACK_CHUNK do
        local to = math.min(from + O.ACK_CHUNK - 1, last)
        local n = O.call('HDEL', O.K_CONTROL, unpack(ids, from, to))
        if n > 0 then
            O.call('HDEL', O.K_CANCELS, unpack(ids, from, to))
            O.call('ZREM', O.K_DEADLINES, unpack(ids, from, to))
            O.count('controlled', -n)
        end
    end
end

-- The tasks the consumer holds whose cancellation was asked, appended to reply; how many.
function O.cancels_of(consumer, reply)
    if not O.controlled() then return 0 end
    local all = O.call('HGETALL', O.K_CANCELS) -- (as few as the cancellations pending)
    local n = 0
    for i = 1, #all, 2 do
        if all[i + 1] == consumer then
            reply[#reply + 1] = all[i]
            n = n + 1
        end
    end
    return n
end

-- A task taken that has its own processing timeout gets its deadline (ids and records of the tasks taken).
function O.note_own_timeouts(consumer, ids, records, taken)
    if O.counter('ownTimeouts') == 0 then return end
    for j = 1, taken do
        local timeout = O.record_timeout(records[j])
        if timeout then
            O.control(ids[j], consumer)
            O.call('ZADD', O.K_DEADLINES, O.NOW + timeout, ids[j])
        end
    end
end

-- When the store takes a held task back though its holder lives (lease time `at`), or nil for never: its own
-- deadline, else the queue's processing timeout after the lease.
function O.deadline_of(id, at)
    if O.controlled() then
        local own = O.call('ZSCORE', O.K_DEADLINES, id)
        if own then return tonumber(own) end
    end
    local timeout = O.meta().processing_timeout
    return timeout > 0 and at + timeout or nil
end

-- A held task whose cancellation was asked leaves (code: its partition): its record goes (it has left its
-- holder's hands already).
function O.drop_cancelled(id, code)
    O.delete_records({ id })
    O.event(O.EVENT_CANCELLED, id, code)
end

-- Appends to reply what is said of a held task (get, in_flight_tasks): its holder, the lease time, its deadline
-- (-1: none), whether its cancellation was asked (1/0) and its last progress (its control entry past the
-- holder, '' when none).
function O.append_held(reply, id, holder, lease)
    local at = O.lease_time(lease)
    local cancel, progress = 0, ''
    if O.controlled() then
        cancel = O.cancel_requested(id) and 1 or 0
        local entry = O.call('HGET', O.K_CONTROL, id)
        if entry then progress = string.sub(entry, 3 + struct.unpack('>I2', entry)) end
    end
    local n = #reply
    reply[n + 1], reply[n + 2], reply[n + 3], reply[n + 4], reply[n + 5] =
        holder, at, O.deadline_of(id, at) or -1, cancel, progress
    return reply
end
