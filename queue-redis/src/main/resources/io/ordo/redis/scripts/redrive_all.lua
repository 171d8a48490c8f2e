#!lua
-- Sends the dead letters back, oldest first, in chunks: one call redrives at most REDRIVE_CHUNK of them,
-- for at most about CHUNK_MICROS, of those that died before the first call of the run (score up to
-- `through`; '' in the first call: the last one now). Tasks that die while a run goes on are not part of it. Reply: {how many, through, 1 if more remain}.
local clock = ARGV[1]
local through = ARGV[2]

local NOW = start(clock)
if through == '' then through = int(counter('deadSeq')) end
O.verify_fixed()
O.unsaved = {} -- the records are written with one HSET by finish()
local ids = call('ZRANGEBYSCORE', K_DEAD, '-inf', through, 'LIMIT', 0, O.REDRIVE_CHUNK)
local records = {}
for i, s in ipairs(O.load_records(ids)) do
    records[i] = O.decode(s)
    O.verify_joining(records[i].code)
end
local began = O.server_micros()
local redriven = 0
for i, id in ipairs(ids) do
    redrive(id, records[i])
    redriven = i
    if i % 16 == 0 and O.spent(began, O.CHUNK_MICROS) then break end
end
finish()
return { redriven, through, (redriven < #ids or #ids == O.REDRIVE_CHUNK) and 1 or 0 }
