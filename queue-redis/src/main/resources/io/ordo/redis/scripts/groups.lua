#!lua flags=no-writes
-- The queue's consumer groups, by name (docs/groups.md). Called on the queue's own keys.
return O.group_names()
