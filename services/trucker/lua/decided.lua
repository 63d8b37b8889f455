-- Append events the rules engine decided on the stream as it was at seq ARGV[3] (the last finish, or
-- the sand run out on START): they end building. ARGV[4] is the required status ('building' for the
-- last finish, 'ending' once stopped), ARGV[5] the FairRng counter after them, ARGV[6] the command
-- (JSON), then ARGV[7], ARGV[8], … alternate event type and data (JSON, kept byte for byte).
-- Only on that very state: anything applied since answers {3, 'seq'} (or {3, 'status'}), nothing
-- changes, and the service decides again.
return run(function()
  if meta('status') ~= ARGV[4] then stale('status') end
  if tonumber(meta('seq')) ~= tonumber(ARGV[3]) then stale('seq') end
  redis.call('HSET', META, 'draw_end', tonumber(ARGV[5]))
  COMMAND = ARGV[6]
  for i = 7, #ARGV, 2 do
    -- The platform's GameEnded (the game over at the end of building) has no actor.
    if ARGV[i] == 'GameEnded' then ACTOR = '' end
    emit(ARGV[i], ARGV[i + 1])
  end
  redis.call('HSET', META, 'status', 'ended')
end)
