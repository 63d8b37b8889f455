-- Quick play: a player left a waiting table (or was moved to another): it waits for one more again.
-- ARGV: base, table id, player. Returns 1 when the player was a member, else 0 (already done).
local base, id, player = ARGV[1], ARGV[2], ARGV[3]
local t = base .. 'table:' .. id
if redis.call('ZREM', base .. 'members:' .. id, player) == 0 then return 0 end
local rating = tonumber(redis.call('HGET', base .. 'ratings:' .. id, player) or '0')
redis.call('HDEL', base .. 'ratings:' .. id, player)
if redis.call('GET', base .. 'player:' .. player) == id then redis.call('DEL', base .. 'player:' .. player) end
local count = redis.call('HINCRBY', t, 'count', -1)
redis.call('HINCRBYFLOAT', t, 'sum', -rating)
local kind = redis.call('HGET', t, 'kind')
if count <= 0 then
  redis.call('DEL', t, base .. 'members:' .. id, base .. 'ratings:' .. id)
  if kind then redis.call('ZREM', base .. 'pool:' .. kind, id) end
  redis.call('ZREM', base .. 'tables', id)
elseif kind then
  redis.call('ZADD', base .. 'pool:' .. kind, tonumber(redis.call('HGET', t, 'created')), id)
end
return 1
