-- Put the component in hand, or else the newest placed one, face up in the warehouse. One that came
-- from the reserve may never go back to the warehouse.
return run(function()
  check_builder(ACTOR)
  local tile, source = hget('hand', ACTOR), 'hand'
  local raw = hget('newest', ACTOR)
  local newest = raw and cjson.decode(raw)
  if (tile and hget('handfrom', ACTOR) == 'reserve') or (not tile and newest and newest.reserve) then
    refuse('RESERVED_STAYS', 'a set-aside component may never go back to the warehouse')
  end
  if tile then
    redis.call('HDEL', key('hand'), ACTOR)
    redis.call('HDEL', key('handfrom'), ACTOR)
  elseif newest then
    tile, source = newest.component, 'ship'
    redis.call('HDEL', key('ship:' .. ACTOR), newest.col .. ',' .. newest.row)
    redis.call('HDEL', key('newest'), ACTOR)
    redis.call('HINCRBY', key('built'), ACTOR, -1)
    redis.call('HINCRBY', key('shipver'), ACTOR, 1)
  else
    refuse('NOTHING_TO_RETURN', 'you hold nothing and your newest component is already fixed')
  end
  redis.call('SADD', key('faceup'), tile)
  redis.call('HSET', key('where'), tile, 'face_up')
  COMMAND = {type = 'ReturnComponent'}
  emit('ComponentReturned', {player = ACTOR, component = tile, source = source})
end)
