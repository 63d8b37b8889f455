-- Quick play: a waiting player gave a sign of life at `at` (ms): a socket on the table opened or beat,
-- or closed (then `at` lies in the past, so only the grace for reconnecting is left).
-- ARGV: base, table id, player, at (ms). Returns 1 if the player waits there, else 0 (nothing written).
local base, id, player, at = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
if redis.call('ZSCORE', base .. 'members:' .. id, player) == false then return 0 end
redis.call('HSET', base .. 'seen:' .. id, player, at)
return 1
