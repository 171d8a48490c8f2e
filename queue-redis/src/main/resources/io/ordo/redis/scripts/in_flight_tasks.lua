#!lua flags=no-writes
-- Tasks in flight with their leases (TaskListing.inFlightTasks): the registered consumers by name (Java's
-- order), each one's `f` hash by HSCAN (its order), from where the last page stopped: a holder, its HSCAN
-- cursor and how many entries of that scan's batch the last page took. At most `limit` tasks, plus the scans
-- it takes to find whether one more follows.
-- Reply: {now, next holder ('' when done), next HSCAN cursor, next skip, then per task: id, record, holder,
-- lease time, deadline (-1: none), cancellation asked (1/0), progress}.
local clock, limit = ARGV[1], tonumber(ARGV[2])
local from_holder, from_cursor, from_skip = ARGV[3], ARGV[4], tonumber(ARGV[5])
local SCAN_COUNT = '100'

local NOW = start(clock)
local consumers = {}
for k, name in ipairs(call('ZRANGE', K_CONSUMERS, 0, -1)) do
    consumers[k] = { name = name, key = java_order_key(name) }
end
table.sort(consumers, function(a, b) return bytes_before(a.key, b.key) end)
local from_key = java_order_key(from_holder)

local found = {} -- {holder, id, lease}
local next_holder, next_cursor, next_skip = '', '0', 0
for _, c in ipairs(consumers) do
    if next_holder ~= '' then break end
    if not bytes_before(c.key, from_key) then
        local cursor, skip = '0', 0
        if c.name == from_holder then cursor, skip = from_cursor, from_skip end
        repeat
            local scanned = call('HSCAN', holding_key(c.name), cursor, 'COUNT', SCAN_COUNT)
            local entries = scanned[2]
            for k = skip + 1, #entries / 2 do
                if #found == limit then -- one more follows: the next page starts with it
                    next_holder, next_cursor, next_skip = c.name, cursor, k - 1
                    break
                end
                found[#found + 1] = { c.name, entries[2 * k - 1], entries[2 * k] }
            end
            cursor, skip = scanned[1], 0
        until cursor == '0' or next_holder ~= ''
    end
end

local ids = {}
for k, f in ipairs(found) do ids[k] = f[2] end
local reply = { NOW, next_holder, next_cursor, next_skip }
for k, record in ipairs(O.load_records(ids)) do
    if record then
        reply[#reply + 1] = ids[k]
        reply[#reply + 1] = record
        O.append_held(reply, ids[k], found[k][1], found[k][3])
    end
end
return reply
