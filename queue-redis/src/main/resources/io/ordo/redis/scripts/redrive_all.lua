#!lua
-- Sends the dead letters back, oldest first, in chunks: one call redrives at most ALL_CHUNK of those that
-- died before the first call of the run (score up to `through`; '' in the first call: the last one now).
-- Tasks that die while a run goes on are not part of it. Reply: {how many, through, 1 if more remain}.
local clock = ARGV[1]
local through = ARGV[2]

local NOW = start(clock)
if through == '' then through = int(counter('deadSeq')) end
O.verify_fixed()
local ids = call('ZRANGEBYSCORE', K_DEAD, '-inf', through, 'LIMIT', 0, O.REDRIVE_CHUNK)
for _, id in ipairs(ids) do O.verify_partition(load(id).code) end
for _, id in ipairs(ids) do redrive(id) end
finish()
return { #ids, through, #ids == O.REDRIVE_CHUNK and 1 or 0 }
