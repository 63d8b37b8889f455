-- Append the envelopes the platform's transaction decided on the stream as it was at seq ARGV[3]: the
-- end of building (the last finish, or the sand run out on START), or a resignation while a round builds.
-- ARGV[4] is the required status ('building' for the last finish, 'ending' once stopped; '' for any: a
-- resignation is decided on the stream alone, at any moment of the round), ARGV[5] the FairRng counter
-- after them, ARGV[6] the meta fields to set once they are in (JSON object of strings: `status` 'ended'
-- closes the round's warehouse; `controllers` hands a resigned seat to its bot, guard `controller`), then per
-- envelope four arguments: type, actor ('' for none: the platform's GameEnded), data and meta (JSON, both
-- stored exactly as decided).
-- Only on that very state: anything applied since answers {3, 'seq'} (or {3, 'status'}), nothing
-- changes, and the service decides again.
return run(function()
  if ARGV[4] ~= '' and meta('status') ~= ARGV[4] then stale('status') end
  if tonumber(meta('seq')) ~= tonumber(ARGV[3]) then stale('seq') end
  redis.call('HSET', META, 'draw_end', tonumber(ARGV[5]))
  for i = 7, #ARGV, 4 do
    ACTOR = ARGV[i + 1]
    emit(ARGV[i], ARGV[i + 2], ARGV[i + 3])
  end
  for field, value in pairs(cjson.decode(ARGV[6])) do redis.call('HSET', META, field, value) end
end)
