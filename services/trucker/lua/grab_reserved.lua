-- ARGV[3]: a component from the actor's own reserve, taken back into the hand to be built in.
return run(function()
  local tile = ARGV[3]
  check_builder(ACTOR)
  check_free_hand(ACTOR)
  local reserve, kept, found = reserve_of(ACTOR), {}, false
  for _, t in ipairs(reserve) do
    if t == tile and not found then found = true else kept[#kept + 1] = t end
  end
  if not found then refuse('NOT_IN_RESERVE', tile .. ' is not in your reserve') end
  set_reserve(ACTOR, kept)
  take_into_hand(ACTOR, tile, 'reserve', {type = 'TakeReserved', component = tile})
end)
