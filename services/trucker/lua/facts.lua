-- What the rules engine needs to decide a move of player ARGV[3], read at one instant: the meta hash
-- (round, options, timer, piles, draw counter, ...), Redis's clock, the player's own seat (hand, ship,
-- newest, reserve, seat version) and who holds which order tile and pile, the face-up tiles and how
-- many lie face down. ARGV[4] = '1' adds the face-down grabs to come (a pile's first look redraws them;
-- they never leave the service). Replies {1, facts JSON}; {2, first, last} if the command id ARGV[1]
-- was applied already (then the move is answered, not decided again); {-1} no warehouse.
if redis.call('EXISTS', META) == 0 then return {-1} end
local before = applied_before()
if before then return before end
local p = ARGV[3]
local function hash(name)
  local flat, result = redis.call('HGETALL', key(name)), {}
  for i = 1, #flat, 2 do result[flat[i]] = flat[i + 1] end
  return result
end
local facts = {meta = hash('meta'), clock = clock, seatver = tonumber(hget('seatver', p) or '0'),
               hand = hget('hand', p) or '', handfrom = hget('handfrom', p) or '', newest = hget('newest', p) or '',
               reserve = hget('reserve', p) or '', ship = hash('ship:' .. p), order = hash('order'),
               finished = hash('finished'), looking = hash('looking'), faceup = redis.call('SMEMBERS', key('faceup')),
               facedown_count = redis.call('LLEN', key('facedown'))}
if ARGV[4] == '1' then facts.facedown = redis.call('LRANGE', key('facedown'), 0, -1) end
return {1, cjson.encode(facts)}
