#!lua flags=allow-oom
-- Deletes completed tasks kept past their time, at most O.EXPIRE_CHUNK, earliest first; the store calls
-- until none is left. Reply: {deleted, 1 when more may be due}.
start(ARGV[1])
O.verify_fixed()
O.verify_results()
local ids = call('ZRANGEBYSCORE', K_COMPLETED, '-inf', O.NOW, 'LIMIT', 0, O.EXPIRE_CHUNK)
if #ids > 0 then O.forget_completed(ids) end
return { #ids, #ids == O.EXPIRE_CHUNK and 1 or 0 }
