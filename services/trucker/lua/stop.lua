-- The sand has run out on START: building stops ('ending') at Redis's clock. Any replica may call it
-- when the time is due; it emits nothing itself: the service has the rules engine decide
-- `CallTimeUp{at: end_at}` on the stream and appends that with `decided.lua`.
-- Replies {1} stopped; {3, 'status'} building was not running; {3, 'not_due'} the sand still runs (or
-- the hourglass is not on START).
return run(function()
  if meta('status') ~= 'building' then stale('status') end
  if tonumber(meta('timer_space')) ~= 0 or NOW < tonumber(meta('runs_out_at')) then stale('not_due') end
  redis.call('HSET', META, 'status', 'ending', 'end_reason', 'time_up', 'end_at', full(NOW))
end)
