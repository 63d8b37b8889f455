-- ARGV[3] column, ARGV[4] row, ARGV[5] rotation, ARGV[6] the ship version the joints were checked
-- against (in Python, with the pure rules), ARGV[7] the component they were checked for, ARGV[8] the
-- warehouse epoch of that ship: a ship changed since, another component in hand (the player returned and
-- grabbed meanwhile) or a reloaded warehouse refuses the stale check.
return run(function()
  local col, row, rot = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
  check_builder(ACTOR)
  local tile = hget('hand', ACTOR)
  if not tile then refuse('NOTHING_IN_HAND', 'you hold no component to place') end
  check_ship_version(ACTOR, ARGV[6])
  if ARGV[7] ~= tile then refuse('STALE_SHIP', 'the component in your hand changed while its placement was checked') end
  if ARGV[8] ~= meta('epoch') then refuse('STALE_SHIP', 'the table was reloaded while the placement was checked') end
  local square = col .. ',' .. row
  if has('ship:' .. ACTOR, square) then refuse('SQUARE_TAKEN', square .. ' already holds a component') end
  local from_reserve = hget('handfrom', ACTOR) == 'reserve'
  redis.call('HDEL', key('hand'), ACTOR)
  redis.call('HDEL', key('handfrom'), ACTOR)
  redis.call('HSET', key('ship:' .. ACTOR), square, tile .. '|' .. rot)
  redis.call('HSET', key('newest'), ACTOR, cjson.encode({component = tile, col = col, row = row, reserve = from_reserve}))
  redis.call('HSET', key('where'), tile, 'ship:' .. ACTOR)
  redis.call('HINCRBY', key('built'), ACTOR, 1)
  redis.call('HINCRBY', key('shipver'), ACTOR, 1)
  COMMAND = {type = 'PlaceComponent', square = {col, row}, rotation = rot}
  emit('ComponentPlaced', {player = ACTOR, component = tile, square = {col, row}, rotation = rot})
end)
