-- Quick play: a player left a waiting table, was moved to another, or gave no sign of life for too long
-- (disconnected, timed out): it waits for one more again.
-- ARGV: base, table id, player, and optionally a time (ms): leave only if the player's last sign of
-- life is older (so a sign given since the sweeper looked keeps them queued).
-- Returns 1 when the player was a member and left, else 0 (already done, or alive after all).
-- A table left empty is dissolved (out of the pool, first in line for the sweeper), not deleted, so
-- whoever syncs it next stands up anyone its stream still seats and closes it; then it is forgotten.
local base, id, player, before = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4] or '')
local t = base .. 'table:' .. id
if redis.call('ZSCORE', base .. 'members:' .. id, player) == false then return 0 end
if before and tonumber(redis.call('HGET', base .. 'seen:' .. id, player) or '0') >= before then return 0 end
redis.call('ZREM', base .. 'members:' .. id, player)
local rating = tonumber(redis.call('HGET', base .. 'ratings:' .. id, player) or '0')
redis.call('HDEL', base .. 'ratings:' .. id, player)
redis.call('HDEL', base .. 'seen:' .. id, player)
if redis.call('GET', base .. 'player:' .. player) == id then redis.call('DEL', base .. 'player:' .. player) end
local count = redis.call('HINCRBY', t, 'count', -1)
redis.call('HINCRBYFLOAT', t, 'sum', -rating)
local kind = redis.call('HGET', t, 'kind')
if count <= 0 then
  redis.call('HSET', t, 'count', 0, 'sum', 0, 'dissolved', 1)
  if kind then redis.call('ZREM', base .. 'pool:' .. kind, id) end
  redis.call('ZADD', base .. 'tables', 0, id)
elseif kind then
  redis.call('ZADD', base .. 'pool:' .. kind, tonumber(redis.call('HGET', t, 'created')), id)
end
return 1
