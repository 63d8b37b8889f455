-- Quick play's sweeper: take (for this replica, for `every` ms) the tables nobody touched for that long.
-- ARGV: base, now (ms), every (ms), at most. Returns their ids.
local base, now, every, most = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local key = base .. 'tables'
local ids = redis.call('ZRANGEBYSCORE', key, '-inf', now - every, 'LIMIT', 0, most)
for _, id in ipairs(ids) do redis.call('ZADD', key, now, id) end
return ids
