-- Read the whole warehouse at one instant (for rebuild checks and the invariant tests). Returns {-1} when it is not in Redis, else a JSON document. The face-down pile is
-- returned as a count unless ARGV[3] == 'secret' (only the invariant tests ask for it).
if redis.call('EXISTS', META) == 0 then return {-1} end
local function hash(name)
  local flat, result = redis.call('HGETALL', key(name)), {}
  for i = 1, #flat, 2 do result[flat[i]] = flat[i + 1] end
  return result
end
local out = {meta = hash('meta'), seat = hash('seat'), hand = hash('hand'), handfrom = hash('handfrom'),
             newest = hash('newest'), seatver = hash('seatver'), order = hash('order'),
             finished = hash('finished'), piles = hash('piles'), looking = hash('looking'),
             reserve = hash('reserve'), faceup = redis.call('SMEMBERS', key('faceup')),
             facedown_count = redis.call('LLEN', key('facedown')), ships = {},
             durable = tonumber(redis.call('GET', key('durable')) or '0')}
local only = ARGV[4] or ''
for p, _ in pairs(out.seat) do
  if only == '' or only == p then out.ships[p] = hash('ship:' .. p) end
end
if ARGV[3] == 'secret' then
  out.facedown = redis.call('LRANGE', key('facedown'), 0, -1)
  out.facedown_draws = redis.call('LRANGE', key('facedown_draws'), 0, -1)
  out.where = hash('where')
  out.cmds = hash('cmds')
  out.outbox_seqs = redis.call('HKEYS', key('outbox'))
end
return {1, cjson.encode(out)}
