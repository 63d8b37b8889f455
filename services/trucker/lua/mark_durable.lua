-- The relay saw this warehouse's events up to ARGV[3] durable in the event store: remember it and drop
-- them from the outbox. ARGV[4] is the warehouse epoch the relay read them from: if Redis was rebuilt
-- since (another epoch), nothing is marked ({0}) and the relay must look again.
if redis.call('EXISTS', META) == 0 then return {-1} end
if meta('epoch') ~= ARGV[4] then return {0} end
local upto = tonumber(ARGV[3])
local durable = tonumber(redis.call('GET', key('durable')) or '0')
if upto > durable then
  for seq = durable + 1, upto do redis.call('HDEL', key('outbox'), seq) end
  redis.call('SET', key('durable'), upto)
  durable = upto
end
return {1, durable}
