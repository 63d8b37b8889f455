-- One player's ship as the placement pre-check needs it, read at one instant:
-- {1, ship version, board, strict ('1' refuses flawed facings), component in hand or '', newest (JSON)
-- or '', warehouse epoch, square, tile|rotation, ...}
if redis.call('EXISTS', META) == 0 then return {-1} end
local p = ARGV[3]
local reply = {1, tonumber(redis.call('HGET', key('shipver'), p) or '0'), meta('board'), meta('strict'),
               redis.call('HGET', key('hand'), p) or '', redis.call('HGET', key('newest'), p) or '',
               meta('epoch')}
local flat = redis.call('HGETALL', key('ship:' .. p))
for i = 1, #flat do reply[#reply + 1] = flat[i] end
return reply
