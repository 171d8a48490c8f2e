#!lua flags=allow-oom
-- Stops delivering from the whole queue; publishing goes on.
O.verify_fixed()
call('HSET', K_META, 'paused', 1)
return 1
