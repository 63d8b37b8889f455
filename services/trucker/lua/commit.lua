-- One player's move, as the rules engine decided it (in Python, on what it read of the warehouse):
-- ARGV[3] the engine's command (JSON), ARGV[4] the guards the decision relies on (JSON list, see
-- GUARDS), ARGV[5] what a first look at a pile changes besides its event (JSON, or ''), then
-- ARGV[6], ARGV[7], ... alternate event type and data (JSON). If every guard still holds, the events
-- are applied and numbered into the outbox and the player's seat version moves on; else nothing changes.
return run(function()
  check_guards(cjson.decode(ARGV[4]))
  COMMAND = ARGV[3]
  if ARGV[5] ~= '' then apply_extras(cjson.decode(ARGV[5])) end
  apply_events(6)
  redis.call('HINCRBY', key('seatver'), ACTOR, 1)
end)
