-- ARGV[3]: the adventure pile (1-3) to pick up. One viewer per pile; never with a component in hand;
-- only once something besides the starting cabin is built. Pile 4 stays secret.
return run(function()
  local pile = tonumber(ARGV[3])
  check_player(ACTOR)
  check_building()
  if pile == 4 then refuse('PILE_SECRET', 'pile 4 stays secret until the flight') end
  if tonumber(hget('built', ACTOR) or '0') < 1 then
    refuse('NOTHING_BUILT', 'attach a component to your ship before looking at a pile')
  end
  local looking = hget('looking', ACTOR)
  if looking then refuse('ALREADY_LOOKING', 'you are already holding pile ' .. looking) end
  if hget('hand', ACTOR) then refuse('HAND_FULL', 'you cannot look at a pile while holding a component') end
  if has('piles', tostring(pile)) then refuse('PILE_IN_USE', 'someone else is looking at pile ' .. pile) end
  redis.call('HSET', key('piles'), tostring(pile), ACTOR)
  redis.call('HSET', key('looking'), ACTOR, pile)
  COMMAND = {type = 'LookAtPile', pile = pile}
  emit('PileTaken', {player = ACTOR, pile = pile})
end)
