-- Results kept on request (docs/task-control.md, "Results"): while the queue's `results` setting keeps them,
-- an ack keeps the task as completed instead of deleting it: its record marked completed, with the time, the
-- holder's delivery counted; in `completed` by when it may go; its result, when not empty, in `results`. In a
-- consumer group the completed record is the group's own, and the group keeps its bit in the shared record
-- until the completed task goes, so the queue's publish sees the id taken as on a queue of its own. Part of the
-- library after control.lua.

O.EXPIRE_CHUNK = 500 -- the completed tasks one expire call deletes (at most), as purge_all_dead_letters

-- Keeps the acked tasks ids[first..last] (held by consumer, leases as read) as completed; results_by_id: their
-- results (id -> bytes), or nil.
function O.keep_completed(consumer, ids, leases, results_by_id)
    local keep = O.results().retention
    local records = O.load_records(ids)
    local until_at = O.NOW + keep
    local scores, results = {}, {}
    for i, id in ipairs(ids) do
        local r = O.as_held(O.decode(records[i]), consumer, leases[i])
        r.state, r.at, r.holder = O.STATE_COMPLETED, O.NOW, nil
        O.call('HSET', O.K_TASKS, id, O.encode(r))
        scores[#scores + 1] = until_at
        scores[#scores + 1] = id
        local result = results_by_id and results_by_id[id]
        if result and #result > 0 then
            results[#results + 1] = id
            results[#results + 1] = result
        end
    end
    for from = 1, #scores, 2000 do
        O.call('ZADD', O.K_COMPLETED, unpack(scores, from, math.min(from + 1999, #scores)))
    end
    for from = 1, #results, 2000 do
        O.call('HSET', O.K_RESULTS, unpack(results, from, math.min(from + 1999, #results)))
    end
end

-- Deletes completed tasks (ids), their results and their place in `completed`.
function O.forget_completed(ids)
    for from = 1, #ids, 1000 do
        local to = math.min(from + 999, #ids)
        O.call('ZREM', O.K_COMPLETED, unpack(ids, from, to))
        O.call('HDEL', O.K_RESULTS, unpack(ids, from, to))
    end
    O.delete_records(ids, true) -- (a group's bit in the shared record goes now: its ack is remembered from here)
end
