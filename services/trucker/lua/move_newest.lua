-- Move and/or turn the newest component, which stays movable until the next grab.
-- ARGV[3] column, ARGV[4] row, ARGV[5] rotation, ARGV[6] the ship version the check was made against.
return run(function()
  local col, row, rot = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
  check_builder(ACTOR)
  local raw = hget('newest', ACTOR)
  if not raw then refuse('NO_NEWEST_COMPONENT', 'no placed component may still be moved') end
  check_ship_version(ACTOR, ARGV[6])
  local newest = cjson.decode(raw)
  local old, square = newest.col .. ',' .. newest.row, col .. ',' .. row
  if square ~= old and has('ship:' .. ACTOR, square) then refuse('SQUARE_TAKEN', square .. ' already holds a component') end
  redis.call('HDEL', key('ship:' .. ACTOR), old)
  redis.call('HSET', key('ship:' .. ACTOR), square, newest.component .. '|' .. rot)
  newest.col, newest.row = col, row
  redis.call('HSET', key('newest'), ACTOR, cjson.encode(newest))
  redis.call('HINCRBY', key('shipver'), ACTOR, 1)
  COMMAND = {type = 'MoveNewest', square = {col, row}, rotation = rot}
  emit('NewestMoved', {player = ACTOR, component = newest.component, square = {col, row}, rotation = rot})
end)
