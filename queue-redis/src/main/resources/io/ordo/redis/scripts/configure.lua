#!lua
-- Stores the queue's settings; every script reads them at its next call. Caps on the dead letters apply from the
-- next dead-lettering and trim_dead_letters on: a lowered cap deletes nothing here (that may be many). Caps and rate limits (ARGV[7],
-- JSON, '' for none: limits.lua) that change make the counts and buckets start anew and every partition be
-- looked at again. On the queue's own keys it sets the queue's own view and each of its consumer groups; on
-- a group's keys, that group alone (docs/groups.md).
local max_attempts = ARGV[2]
local processing_timeout = ARGV[3]
local dedup_window = ARGV[4]
local heartbeat_ttl = ARGV[5]
local max_payload = ARGV[6]
local limits_text = ARGV[7]
local dead_caps = ARGV[8] or '' -- the caps on the dead letters, 'count:ageMs', '' for none (O.dead_caps)
-- the results kept and the event log's length, 'retentionMs:maxBytes:eventLogLength', '' for the defaults (O.results)
local results = ARGV[9] or ''

start(ARGV[1])
local metas = { K_META }
if not O.key_sets[K_META].group then
    for _, name in ipairs(O.group_names()) do metas[#metas + 1] = O.group_prefix(name) .. 'meta' end
end
local new = limits_text ~= '' and O.decode_limits(limits_text) or nil
-- every view's keys are checked before the first write
local olds = {}
for i, meta in ipairs(metas) do
    if i > 1 then O.begin({ meta }) end
    O.verify_fixed()
    local old = O.limits()
    if old or new then
        for kind in pairs(O.LIMIT_KINDS) do O.verify(O.PREFIX .. kind, O.KIND_TYPES[kind]) end
    end
    olds[i] = old or false
end
for i, meta in ipairs(metas) do
    if #metas > 1 then O.begin({ meta }) end
    call('HSET', meta, 'maxAttempts', max_attempts, 'processingTimeoutMs', processing_timeout,
        'dedupWindowMs', dedup_window, 'heartbeatTtlMs', heartbeat_ttl, 'maxPayloadBytes', max_payload)
    if new then call('HSET', meta, 'limits', limits_text) else call('HDEL', meta, 'limits') end
    if dead_caps ~= '' then call('HSET', meta, 'deadLetterCaps', dead_caps) else call('HDEL', meta, 'deadLetterCaps') end
    if results ~= '' then call('HSET', meta, 'results', results) else call('HDEL', meta, 'results') end
    -- a view that stops keeping a log drops it (its numbering goes on); a shorter one drops its excess at the
    -- next event (event_log.lua)
    if not string.match(results, '^%d+:%d+:[1-9]%d*$') then call('DEL', O.PREFIX .. 'events') end
    local old = olds[i] or nil
    if old or new then
        O.meta().limits = new
        O.limits_changed(old, new)
        finish()
    end
end
return 1
