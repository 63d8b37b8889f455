-- Declare the ship finished by taking an order tile: ARGV[3] names one, or '' for the lowest free one.
-- The last ship to finish ends building, and what follows (inspection, launch, chance) needs the whole
-- game: that finish is refused here (LAST_TO_FINISH) and the service has the rules engine decide it on
-- the stream, then appends it with `decided.lua`.
return run(function()
  check_builder(ACTOR)
  check_free_hand(ACTOR)
  local count = redis.call('HLEN', key('seat'))
  local order_tile = tonumber(ARGV[3])
  if ARGV[3] == '' then
    for n = 1, count do
      if not has('order', tostring(n)) then order_tile = n break end
    end
  end
  if not order_tile or order_tile < 1 or order_tile > count or order_tile ~= math.floor(order_tile) then
    refuse('NO_SUCH_ORDER_TILE', 'order tiles run from 1 to ' .. count)
  end
  if has('order', tostring(order_tile)) then refuse('ORDER_TILE_TAKEN', 'order tile ' .. order_tile .. ' is already taken') end
  if redis.call('HLEN', key('finished')) == count - 1 then refuse('LAST_TO_FINISH', 'decided by the rules engine') end
  redis.call('HSET', key('order'), tostring(order_tile), ACTOR)
  redis.call('HSET', key('finished'), ACTOR, order_tile)
  redis.call('HDEL', key('newest'), ACTOR)
  if ARGV[3] == '' then COMMAND = {type = 'Finish'} else COMMAND = {type = 'Finish', order_tile = order_tile} end
  emit('ShipFinished', {player = ACTOR, order_tile = order_tile})
end)
