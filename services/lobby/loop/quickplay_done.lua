-- Quick play: a table started (or can never start): forget it; its players may queue again.
-- ARGV: base, table id. Returns the members it had.
local base, id = ARGV[1], ARGV[2]
local t = base .. 'table:' .. id
local members = redis.call('ZRANGE', base .. 'members:' .. id, 0, -1)
for _, player in ipairs(members) do
  if redis.call('GET', base .. 'player:' .. player) == id then redis.call('DEL', base .. 'player:' .. player) end
end
local kind = redis.call('HGET', t, 'kind')
if kind then redis.call('ZREM', base .. 'pool:' .. kind, id) end
redis.call('DEL', t, base .. 'members:' .. id, base .. 'ratings:' .. id, base .. 'seen:' .. id)
redis.call('ZREM', base .. 'tables', id)
return members
