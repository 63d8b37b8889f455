-- Grab the front of the face-down pile. Its identity reaches an event (and so anyone) only now.
return run(function()
  check_builder(ACTOR)
  check_free_hand(ACTOR)
  local tile = redis.call('LPOP', key('facedown'))
  if not tile then refuse('WAREHOUSE_EMPTY', 'no face-down component is left') end
  take_into_hand(ACTOR, tile, 'face_down', {type = 'GrabFaceDown'})
end)
