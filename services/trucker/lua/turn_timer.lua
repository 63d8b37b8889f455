-- Move the run-out hourglass one space toward START and turn it over. Only a player holding an order
-- tile may move it onto START.
return run(function()
  check_player(ACTOR)
  check_building()
  local runs_out_at, space = tonumber(meta('runs_out_at')), tonumber(meta('timer_space'))
  if NOW < runs_out_at then refuse('SAND_STILL_RUNNING', 'the sand runs out at ' .. runs_out_at) end
  if space == 0 then refuse('TIMER_ON_START', 'the hourglass is on START: when it runs out building ends') end
  if space == 1 and not has('finished', ACTOR) then
    refuse('NOT_FINISHED', 'only a player holding an order tile may move the hourglass onto START')
  end
  local until_ = NOW + tonumber(meta('seconds'))
  redis.call('HSET', META, 'timer_space', space - 1, 'runs_out_at', full(until_))
  COMMAND = {type = 'TurnTimer', at = NOW}
  emit('TimerTurned', {player = ACTOR, at = NOW, timer_space = space - 1, runs_out_at = exact(until_)})
end)
