-- Set the component in hand aside on a free reserve spot.
return run(function()
  check_builder(ACTOR)
  local tile = hget('hand', ACTOR)
  if not tile then refuse('NOTHING_IN_HAND', 'you hold no component to set aside') end
  local slots, reserve = tonumber(meta('reserve_slots')), reserve_of(ACTOR)
  if slots == 0 then refuse('NO_RESERVE_THIS_ROUND', 'there are no reserve spots in this round') end
  if #reserve >= slots then refuse('RESERVE_FULL', 'both reserve spots are taken') end
  reserve[#reserve + 1] = tile
  set_reserve(ACTOR, reserve)
  redis.call('HDEL', key('hand'), ACTOR)
  redis.call('HDEL', key('handfrom'), ACTOR)
  redis.call('HSET', key('where'), tile, 'reserve:' .. ACTOR)
  COMMAND = {type = 'ReserveComponent'}
  emit('ComponentReserved', {player = ACTOR, component = tile})
end)
