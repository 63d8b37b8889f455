-- Quick play: two waiting tables of one kind whose bands now overlap and whose players fit at one
-- table become one: the younger's players move to the older (which keeps its place in the pool).
-- ARGV: base, kind, now (ms), band, widen (per s), ttl (s).
-- The younger is left dissolved (no members, out of the pool, first in line for the sweeper), so
-- whoever syncs it next stands its seated players up; then it is forgotten.
-- Returns the ids of the tables touched (older, younger, …).
local base, kind, now = ARGV[1], ARGV[2], tonumber(ARGV[3])
local band, widen, ttl = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local pool = base .. 'pool:' .. kind
local ids = redis.call('ZRANGE', pool, 0, 199)
local gone, result = {}, {}
for i = 1, #ids do
  local a = ids[i]
  local ta = base .. 'table:' .. a
  for j = i + 1, #ids do
    local b = ids[j]
    local tb = base .. 'table:' .. b
    if not gone[a] and not gone[b] then
      local seats = tonumber(redis.call('HGET', ta, 'seats'))
      local ca, cb = tonumber(redis.call('HGET', ta, 'count') or '0'), tonumber(redis.call('HGET', tb, 'count') or '0')
      if ca > 0 and cb > 0 and ca + cb <= seats then
        local ma = tonumber(redis.call('HGET', ta, 'sum')) / ca
        local mb = tonumber(redis.call('HGET', tb, 'sum')) / cb
        local waited = (now - tonumber(redis.call('HGET', tb, 'created'))) / 1000   -- the younger's wait
        if math.abs(ma - mb) <= band + widen * waited then
          local moved = redis.call('ZRANGE', base .. 'members:' .. b, 0, -1)
          table.insert(result, a); table.insert(result, b)
          for _, player in ipairs(moved) do
            local rating = tonumber(redis.call('HGET', base .. 'ratings:' .. b, player))
            local order = redis.call('HINCRBY', ta, 'joins', 1)
            redis.call('ZADD', base .. 'members:' .. a, order, player)
            redis.call('HSET', base .. 'ratings:' .. a, player, rating)
            redis.call('HSET', base .. 'seen:' .. a, player,
                       redis.call('HGET', base .. 'seen:' .. b, player) or now)
            redis.call('HINCRBY', ta, 'count', 1)
            redis.call('HINCRBYFLOAT', ta, 'sum', rating)
            redis.call('SET', base .. 'player:' .. player, a, 'EX', ttl)
          end
          redis.call('DEL', base .. 'members:' .. b, base .. 'ratings:' .. b, base .. 'seen:' .. b)
          redis.call('HSET', tb, 'count', 0, 'sum', 0, 'dissolved', 1)
          redis.call('ZREM', pool, b)
          redis.call('ZADD', base .. 'tables', 0, b)
          gone[b] = true
          if ca + cb >= seats then redis.call('ZREM', pool, a); gone[a] = true end
        end
      end
    end
  end
end
return result
