-- What the relay needs in one round trip: {1, durable seq, last seq, epoch, outbox events after the
-- durable seq, in seq order, stopping at the first gap}. About ARGV[3] of them: the batch always ends
-- at the end of a script's run (before an event carrying a command), so one run's events are appended
-- together (the audit groups a command's events by the append that stored them).
-- ARGV[4], ARGV[5] (optional): first mark the events up to ARGV[4] durable, as `mark_durable` does, if
-- the warehouse is still of epoch ARGV[5] (the relay defers that mark to its next read: one round trip).
if redis.call('EXISTS', META) == 0 then return {-1} end
local durable = mark_durable(ARGV[4], ARGV[5])
local last = tonumber(meta('seq'))
local reply = {1, durable, last, meta('epoch')}
local limit = tonumber(ARGV[3])
for seq = durable + 1, last do
  local event = redis.call('HGET', key('outbox'), seq)
  if not event then break end
  if seq - durable > limit and string.find(event, '"command":', 1, true) then break end
  reply[#reply + 1] = event
end
return reply
