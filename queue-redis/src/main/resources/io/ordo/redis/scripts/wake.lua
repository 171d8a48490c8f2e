#!lua flags=allow-oom
-- Applies what time has made due and wakes a blocked consumer if work is waiting (DueTimeWakes: a
-- waiting store calls it when the delay or block it naps for runs out). Reply: 1, or 0 when paused.
local clock = ARGV[1]

local NOW = start(clock)
if O.meta().paused then return 0 end -- a paused queue wakes no consumer
if O.next_timer and O.next_timer <= NOW then
    O.verify_fixed() -- (before the first write: see O.verify)
    O.promote_due()
end
finish()
return 1
