-- Append the envelopes the platform's transaction decided on the stream as it was at seq ARGV[3] (the
-- last finish, or the sand run out on START): they end building. ARGV[4] is the required status
-- ('building' for the last finish, 'ending' once stopped), ARGV[5] the FairRng counter after them, then
-- per envelope four arguments: type, actor ('' for none: the platform's GameEnded), data and meta (JSON,
-- both stored exactly as decided).
-- Only on that very state: anything applied since answers {3, 'seq'} (or {3, 'status'}), nothing
-- changes, and the service decides again.
return run(function()
  if meta('status') ~= ARGV[4] then stale('status') end
  if tonumber(meta('seq')) ~= tonumber(ARGV[3]) then stale('seq') end
  redis.call('HSET', META, 'draw_end', tonumber(ARGV[5]))
  for i = 6, #ARGV, 4 do
    ACTOR = ARGV[i + 1]
    emit(ARGV[i], ARGV[i + 2], ARGV[i + 3])
  end
  redis.call('HSET', META, 'status', 'ended')
end)
