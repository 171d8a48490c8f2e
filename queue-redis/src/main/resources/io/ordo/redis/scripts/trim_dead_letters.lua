#!lua flags=allow-oom
-- Deletes the dead letters past the queue's caps, oldest first (O.drop_dead), in chunks: one call deletes at
-- most PURGE_CHUNK of them, for at most about CHUNK_MICROS. Without caps it reads the settings and nothing else.
-- Reply: {how many, 1 if the caps may delete more}.
start(ARGV[1])
if not O.dead_caps() then return { 0, 0 } end
O.verify_fixed()
local dropped, more = O.drop_dead(O.PURGE_CHUNK, O.server_micros())
finish(false) -- (the counters; no work was made available)
return { dropped, more and 1 or 0 }
