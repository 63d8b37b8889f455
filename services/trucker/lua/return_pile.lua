-- Put back the adventure pile the actor holds.
return run(function()
  check_player(ACTOR)
  check_building()
  local pile = hget('looking', ACTOR)
  if not pile then refuse('NOT_LOOKING', 'you are not holding an adventure pile') end
  redis.call('HDEL', key('looking'), ACTOR)
  redis.call('HDEL', key('piles'), pile)
  COMMAND = {type = 'PutBackPile'}
  emit('PileReturned', {player = ACTOR, pile = tonumber(pile)})
end)
