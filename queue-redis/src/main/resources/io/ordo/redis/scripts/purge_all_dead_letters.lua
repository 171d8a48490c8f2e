#!lua flags=allow-oom
-- Deletes the dead letters, oldest first, in chunks: one call deletes at most PURGE_CHUNK of those that
-- died before the first call of the run (score up to `through`; '' in the first call: the last one now).
-- Reply: {how many, through, 1 if more remain}.
local through = ARGV[2]

O.verify_fixed()
if through == '' then through = int(counter('deadSeq')) end
local ids = call('ZRANGEBYSCORE', K_DEAD, '-inf', through, 'LIMIT', 0, O.PURGE_CHUNK)
if #ids > 0 then
    call('ZREM', K_DEAD, unpack(ids))
    O.delete_records(ids)
end
return { #ids, through, #ids == O.PURGE_CHUNK and 1 or 0 }
