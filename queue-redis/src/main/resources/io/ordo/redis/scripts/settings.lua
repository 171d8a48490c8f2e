#!lua flags=no-writes
-- The queue's settings, defaults where not configured. Reply: {maxAttempts, processingTimeoutMs,
-- dedupWindowMs, heartbeatTtlMs, maxPayloadBytes}.
local s = settings()
return { s.max_attempts, s.processing_timeout, s.dedup_window, s.heartbeat_ttl, s.max_payload }
