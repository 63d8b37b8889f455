-- Quick play: seat one player at the best waiting table of their kind, or open one; atomically.
-- Every key is `<base><name>` with base = '<prefix>:{qp}:' (one hash slot, so one script may touch them).
-- ARGV: base, player, game, seats, rated ('1'/'0'), rating, now (ms), new table id, band, widen (per s),
--       ttl (s).
-- Returns {table id, 'created' | 'joined' | 'waiting' | 'elsewhere'}: 'waiting' when the player already
-- waits at a table of this kind (the same answer again), 'elsewhere' when at a table of another kind.
local base, player, game = ARGV[1], ARGV[2], ARGV[3]
local seats, rated, rating, now = tonumber(ARGV[4]), ARGV[5], tonumber(ARGV[6]), tonumber(ARGV[7])
local new_id, band, widen, ttl = ARGV[8], tonumber(ARGV[9]), tonumber(ARGV[10]), tonumber(ARGV[11])
local kind = game .. ':' .. seats .. ':' .. rated
local mine = base .. 'player:' .. player

local current = redis.call('GET', mine)
if current then
  local held = base .. 'table:' .. current
  if redis.call('EXISTS', held) == 1 then
    if redis.call('HGET', held, 'kind') == kind then
      redis.call('HSET', base .. 'seen:' .. current, player, now)     -- asking again is a sign of life
      return {current, 'waiting'}
    end
    return {current, 'elsewhere'}
  end
  redis.call('DEL', mine)
end

-- The longest-waiting table whose band covers this player; the band widens with the table's wait.
local pool = base .. 'pool:' .. kind
local chosen = nil
for _, id in ipairs(redis.call('ZRANGE', pool, 0, 199)) do
  local t = base .. 'table:' .. id
  local count = tonumber(redis.call('HGET', t, 'count') or '0')
  if count > 0 and count < seats then
    local mean = tonumber(redis.call('HGET', t, 'sum')) / count
    local waited = (now - tonumber(redis.call('HGET', t, 'created'))) / 1000
    if math.abs(rating - mean) <= band + widen * waited then
      chosen = id
      break
    end
  end
end

local id = chosen or new_id
local t = base .. 'table:' .. id
if not chosen then
  redis.call('HSET', t, 'kind', kind, 'game', game, 'seats', seats, 'rated', rated, 'host', player,
             'created', now, 'count', 0, 'sum', 0, 'joins', 0)
  redis.call('ZADD', pool, now, id)
end
local order = redis.call('HINCRBY', t, 'joins', 1)
local count = redis.call('HINCRBY', t, 'count', 1)
redis.call('HINCRBYFLOAT', t, 'sum', rating)
redis.call('ZADD', base .. 'members:' .. id, order, player)
redis.call('HSET', base .. 'ratings:' .. id, player, rating)
redis.call('HSET', base .. 'seen:' .. id, player, now)
redis.call('SET', mine, id, 'EX', ttl)
if count >= seats then redis.call('ZREM', pool, id) end
redis.call('ZADD', base .. 'tables', now, id)
for _, key in ipairs({t, base .. 'members:' .. id, base .. 'ratings:' .. id, base .. 'seen:' .. id}) do redis.call('EXPIRE', key, ttl) end
if chosen then return {id, 'joined'} end
return {id, 'created'}
