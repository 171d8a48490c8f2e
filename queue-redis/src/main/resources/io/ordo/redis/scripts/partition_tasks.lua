#!lua flags=no-writes
-- A partition as its page shows it (TaskListing.partitionTasks; docs/redis-design.md, "Task lists"): its
-- counts, lock and block, and from `offset` up to `limit` of the tasks it delivers from, in the order it
-- delivers them: its list and its sorted set merged (a regular partition's tasks not ready yet are in
-- `delayed`, not here). Reads offset + limit members of each, and skips the cancelled members left in the
-- list (stale: their record is gone or has another seq), reading at most STALE_ALLOWANCE more of them.
-- Reply: {now, waiting, total, in flight (-1: not counted), holder ('' when not held), since, blocked until
-- (-1: no block in force), head id ('' when none), head record, then id and record of each task of the page}.
local clock, code = ARGV[1], ARGV[2]
local offset, limit = tonumber(ARGV[3]), tonumber(ARGV[4])
local STALE_ALLOWANCE = 1000

local NOW = start(clock)
local run, rest = run_key(code), rest_key(code)
local window = offset + limit
local stale = counter('stale') > 0 and tonumber(call('HGET', K_STALE, code)) or 0
local listed = call('LRANGE', run, 0, window + math.min(stale, STALE_ALLOWANCE) - 1)
local others = counter('rest') > 0 and call('ZRANGE', rest, 0, window - 1) or {}
local live = listed
if stale > 0 and #listed > 0 then
    live = {}
    local ids = {}
    for i, m in ipairs(listed) do ids[i] = O.member_id(m) end
    local records = O.load_records(ids)
    for i, m in ipairs(listed) do
        local s = records[i]
        if s and string.byte(s, 1) % 4 == STATE_WAITING and struct.unpack('>I6', s, 2) == O.member_seq(m) then
            live[#live + 1] = m
        end
    end
end
local merged = {}
local i, j = 1, 1
while #merged < window and (i <= #live or j <= #others) do
    if j > #others or (i <= #live and O.member_before(live[i], others[j])) then
        merged[#merged + 1] = live[i]
        i = i + 1
    else
        merged[#merged + 1] = others[j]
        j = j + 1
    end
end

local holder = is_ordered(code) and call('HGET', K_LOCKS, code)
local since = holder and (tonumber(call('HGET', K_LOCK_SINCE, code)) or NOW) or 0
local in_flight = -1
if is_ordered(code) then
    in_flight = call('ZCARD', flight_key(code))
elseif O.limits() and O.limits().counting then
    in_flight = O.gate_state(O.limits().pr, call('HGET', K_INFLIGHT, code) or nil)
end
local blocked_until = tonumber(call('ZSCORE', K_BLOCKED, code) or '-1')
if blocked_until <= NOW then blocked_until = -1 end

local ids = {}
if merged[1] then ids[1] = O.member_id(merged[1]) end
for k = offset + 1, #merged do ids[#ids + 1] = O.member_id(merged[k]) end
local records = O.load_records(ids)
local reply = { NOW, O.size(code), call('LLEN', run) - stale + call('ZCARD', rest), in_flight, holder or '', since,
    blocked_until, ids[1] or '', records[1] or '' }
for k = 2, #ids do
    if records[k] then
        reply[#reply + 1] = ids[k]
        reply[#reply + 1] = records[k]
    end
end
return reply
