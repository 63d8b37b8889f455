-- ARGV[3]: the adventure pile (1-3) to pick up. One viewer per pile; never with a component in hand;
-- only once something besides the starting cabin is built. Pile 4 stays secret.
--
-- A pile nobody has looked at this round has no cards yet: the rules engine draws them at its first
-- look (`trucker_rules.deck.draw_pile`). The service computed that draw in Python from the game's
-- FairRng at the counter ARGV[4] (with the warehouse's draw counter then), and, since the draw moves
-- the counter, the face-down grabs to come from the new one:
-- ARGV[5] every pile as JSON (this one's cards included), ARGV[6] the counter after the draw,
-- ARGV[7] / ARGV[8] the new face-down order and the counter after each grab (JSON lists).
-- A draw computed on an older counter (a grab or another first look came in between) is refused
-- with STALE_DRAW and computed again; nothing was changed.
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
  local piles = cjson.decode(meta('piles'))
  local cards = nil
  if #piles[pile] == 0 then
    if ARGV[4] == nil or ARGV[4] == '' or ARGV[4] ~= meta('draw_end') then
      refuse('STALE_DRAW', 'the pile must be drawn at the current draw counter')
    end
    cards = cjson.decode(ARGV[5])[pile]
    redis.call('HSET', META, 'piles', ARGV[5], 'draw_end', ARGV[6])
    redis.call('DEL', key('facedown'), key('facedown_draws'))
    for _, tile in ipairs(cjson.decode(ARGV[7])) do redis.call('RPUSH', key('facedown'), tile) end
    for _, draw_end in ipairs(cjson.decode(ARGV[8])) do redis.call('RPUSH', key('facedown_draws'), draw_end) end
  end
  redis.call('HSET', key('piles'), tostring(pile), ACTOR)
  redis.call('HSET', key('looking'), ACTOR, pile)
  COMMAND = {type = 'LookAtPile', pile = pile}
  if cards then
    emit('PileTaken', {player = ACTOR, pile = pile, cards = cards})
  else
    emit('PileTaken', {player = ACTOR, pile = pile, cards = cjson.null})
  end
end)
