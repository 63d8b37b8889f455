-- The sand has run out on START: building stops ('ending'). Any replica may call it when the time is
-- due; it emits nothing itself: the service has the rules engine decide `CallTimeUp{at: end_at}` on
-- the stream and appends that with `decided.lua`.
return run(function()
  if meta('status') ~= 'building' then refuse('NOT_BUILDING', 'building has already stopped') end
  if tonumber(meta('timer_space')) ~= 0 then refuse('TIMER_NOT_ON_START', 'building ends only when the sand runs out on START') end
  if NOW < tonumber(meta('runs_out_at')) then refuse('SAND_STILL_RUNNING', 'the sand runs out at ' .. meta('runs_out_at')) end
  redis.call('HSET', META, 'status', 'ending', 'end_reason', 'time_up', 'end_at', NOW)
end)
