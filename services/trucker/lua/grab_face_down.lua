-- Grab the next face-down tile. The rules engine draws it at grab time (`draw_face_down`); the whole
-- sequence of those draws was computed from the seed when the warehouse was loaded (`future_grabs`),
-- with the FairRng counter after each, which the event records as the engine would. Its identity
-- reaches an event (and so anyone) only now.
return run(function()
  check_builder(ACTOR)
  check_free_hand(ACTOR)
  local tile = redis.call('LPOP', key('facedown'))
  if not tile then refuse('WAREHOUSE_EMPTY', 'no face-down component is left') end
  redis.call('HSET', META, 'draw_end', redis.call('LPOP', key('facedown_draws')))
  take_into_hand(ACTOR, tile, 'face_down', {type = 'GrabFaceDown'})
end)
