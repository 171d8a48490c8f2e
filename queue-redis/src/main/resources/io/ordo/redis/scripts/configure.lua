#!lua
-- Stores the queue's settings; every script reads them at its next call. Caps and rate limits (ARGV[7],
-- JSON, '' for none: limits.lua) that change make the counts and buckets start anew and every partition be
-- looked at again.
local max_attempts = ARGV[2]
local processing_timeout = ARGV[3]
local dedup_window = ARGV[4]
local heartbeat_ttl = ARGV[5]
local max_payload = ARGV[6]
local limits_text = ARGV[7]

start(ARGV[1])
O.verify_fixed()
local old = O.limits()
local new = limits_text ~= '' and O.decode_limits(limits_text) or nil
if old or new then
    for kind in pairs(O.LIMIT_KINDS) do O.verify(O.PREFIX .. kind, O.KIND_TYPES[kind]) end
end
call('HSET', K_META, 'maxAttempts', max_attempts, 'processingTimeoutMs', processing_timeout,
    'dedupWindowMs', dedup_window, 'heartbeatTtlMs', heartbeat_ttl, 'maxPayloadBytes', max_payload)
if new then call('HSET', K_META, 'limits', limits_text) else call('HDEL', K_META, 'limits') end
if old or new then
    O.meta().limits = new
    O.limits_changed(old, new)
    finish()
end
return 1
