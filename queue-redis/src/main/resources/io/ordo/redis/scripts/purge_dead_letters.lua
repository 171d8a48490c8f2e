#!lua flags=allow-oom
-- Deletes the named dead letters. Reply: how many were deleted.
local FIRST_ID = 2

O.verify_fixed()
local purged = 0
for i = FIRST_ID, #ARGV do
    if purge(ARGV[i]) then purged = purged + 1 end
end
return purged
