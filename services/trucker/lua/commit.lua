-- One player's move, as the rules engine decided it (in Python, on what it read of the warehouse):
-- ARGV[3] the engine's command (JSON), ARGV[4] the guards the decision relies on (JSON list, see
-- GUARDS), ARGV[5] what a first look at a pile changes besides its event (JSON, or ''), ARGV[6] and
-- ARGV[7] what the calling relay has stored and not yet marked (seq, epoch; '' for none: see
-- `mark_durable`), ARGV[8] who played the move when not the seat's player ('' for the player: a bot
-- seat's moves carry `bot:<level>`, a substitute's their player id), then ARGV[9], ARGV[10], ... alternate event type and data (JSON). If every guard
-- still holds, the events are applied and numbered into the outbox and the player's seat version moves
-- on; else nothing changes. An applied move answers {1, durable seq, event_json...}: with the durable
-- seq the relay knows whether the events before the move's are stored, and can store the move's own
-- without reading the outbox again (`relay.Relay.offer`).
local durable = mark_durable(ARGV[6], ARGV[7])
local reply = run(function()
  check_guards(cjson.decode(ARGV[4]))
  COMMAND = ARGV[3]
  if ARGV[8] ~= '' then PLAYED_BY = ARGV[8] end
  if ARGV[5] ~= '' then apply_extras(cjson.decode(ARGV[5])) end
  apply_events(9)
  redis.call('HINCRBY', key('seatver'), ACTOR, 1)
end)
if reply[1] == 1 then table.insert(reply, 2, durable) end
return reply
