-- ARGV[3]: the face-up component chosen. Whoever's script runs first gets it; the rest are refused.
return run(function()
  local tile = ARGV[3]
  check_builder(ACTOR)
  check_free_hand(ACTOR)
  if redis.call('SREM', key('faceup'), tile) == 0 then
    refuse('NOT_FACE_UP', tile .. ' is not lying face up in the warehouse (someone may have just taken it)')
  end
  take_into_hand(ACTOR, tile, 'face_up', {type = 'GrabFaceUp', component = tile})
end)
