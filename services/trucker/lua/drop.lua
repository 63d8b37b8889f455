-- Forget the game's warehouse, all its keys at once: when it disagrees with the stream, or its round is
-- over and the next one starts. ARGV[3]: only if it holds that round, ARGV[4]: only if it is that load
-- (epoch) ('' = whatever it holds), so two replicas moving to the next round, or several moves noticing
-- one disagreement, cannot drop each other's fresh warehouse.
if redis.call('EXISTS', META) == 0 then return {0} end
if ARGV[3] ~= '' and meta('round') ~= ARGV[3] then return {0} end
if ARGV[4] ~= '' and meta('epoch') ~= ARGV[4] then return {0} end
local doomed = {META}
for _, name in ipairs({'seat', 'where', 'hand', 'handfrom', 'newest', 'seatver', 'order', 'finished',
                      'piles', 'looking', 'cmds', 'reserve', 'outbox', 'durable', 'facedown', 'facedown_draws', 'faceup'}) do
  doomed[#doomed + 1] = key(name)
end
for _, p in ipairs(cjson.decode(meta('players'))) do doomed[#doomed + 1] = key('ship:' .. p) end
redis.call('DEL', unpack(doomed))
return {1}
