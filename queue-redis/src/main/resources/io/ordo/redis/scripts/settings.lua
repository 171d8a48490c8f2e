#!lua flags=no-writes
-- The queue's settings, defaults where not configured. Reply: {maxAttempts, processingTimeoutMs,
-- dedupWindowMs, heartbeatTtlMs, maxPayloadBytes, partitionConcurrency, queueConcurrency, queue rate limit's
-- permits, per (ms), burst, the partition rate limit's (0 0 0: none), deadLetterMaxCount, deadLetterMaxAgeMs
-- (0: none), resultRetentionMs (0: none), maxResultBytes, eventLogLength (0: none), then code and cap of each
-- override}.
local s = settings()
local caps = O.dead_caps()
local reply = { s.max_attempts, s.processing_timeout, s.dedup_window, s.heartbeat_ttl, s.max_payload, 0, 0,
    0, 0, 0, 0, 0, 0, caps and caps.count or 0, caps and caps.age or 0, O.results().retention, O.results().max_bytes,
    O.results().events }
local l = s.limits
if l then
    reply[6], reply[7] = l.pc, l.qc
    if l.qr then reply[8], reply[9], reply[10] = l.qr.permits, l.qr.per, l.qr.burst end
    if l.pr then reply[11], reply[12], reply[13] = l.pr.permits, l.pr.per, l.pr.burst end
    for code, cap in pairs(l.ov) do
        reply[#reply + 1] = code
        reply[#reply + 1] = cap
    end
end
return reply
