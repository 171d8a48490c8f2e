#!lua flags=no-writes
-- Dead letters a filter matches, oldest first (TaskListing.findDeadLetters): at most `examine` of `dead`
-- after death number `after` ('' from the first), read in chunks and no more once about READ_BUDGET bytes of
-- records were read; up to `limit` matches. The filter is DeadLetterFilter.matches: `text` in the reason
-- ignoring the case of ASCII letters ('' any), the partition `code` ('' any), died at or after `from` and
-- before `before` ('' any).
-- Reply: {now, examined, death number to go on after ('' when none is left), then id and record of each match}.
local clock, after, limit, examine = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local text, code, from, before = ARGV[5], ARGV[6], tonumber(ARGV[7]), tonumber(ARGV[8])
local CHUNK, READ_BUDGET = 100, 4 * 1024 * 1024

local NOW = start(clock)
local entries = call('ZRANGEBYSCORE', K_DEAD, after == '' and '-inf' or '(' .. after, '+inf', 'WITHSCORES',
    'LIMIT', 0, examine)
local needle = text ~= '' and string.lower(text)
local reply = { NOW, 0, '' }
local examined, last, read, matched = 0, nil, 0, 0
local stop = false
for first = 1, #entries, 2 * CHUNK do
    local ids, deaths = {}, {}
    for k = first, math.min(first + 2 * CHUNK - 1, #entries), 2 do
        ids[#ids + 1] = entries[k]
        deaths[#deaths + 1] = entries[k + 1]
    end
    local records = O.load_records(ids)
    for k, id in ipairs(ids) do
        examined, last = examined + 1, deaths[k]
        local s = records[k]
        if s then
            read = read + #s
            local r = O.decode(s)
            if (code == '' or r.code == code) and (not from or r.at >= from) and (not before or r.at < before)
                    and (not needle or string.find(string.lower(r.error or ''), needle, 1, true)) then
                reply[#reply + 1] = id
                reply[#reply + 1] = s
                matched = matched + 1
            end
        end
        if matched == limit then
            stop = true
            break
        end
    end
    if stop or read > READ_BUDGET then break end
end
reply[2] = examined
if last and #call('ZRANGEBYSCORE', K_DEAD, '(' .. last, '+inf', 'LIMIT', 0, 1) > 0 then reply[3] = last end
return reply
