#!lua
-- Stores the queue's settings; every script reads them at its next call.
local max_attempts = ARGV[2]
local processing_timeout = ARGV[3]
local dedup_window = ARGV[4]
local heartbeat_ttl = ARGV[5]
local max_payload = ARGV[6]

O.verify_fixed()
call('HSET', K_META, 'maxAttempts', max_attempts, 'processingTimeoutMs', processing_timeout,
    'dedupWindowMs', dedup_window, 'heartbeatTtlMs', heartbeat_ttl, 'maxPayloadBytes', max_payload)
return 1
