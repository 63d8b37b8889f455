-- Put a whole warehouse into Redis at once (ARGV[3]: the document `state_doc.py` builds from the
-- rules engine's state at the stream's last event). When building starts now, ARGV[4] is the engine's
-- StartBuilding command (JSON) and ARGV[5], ARGV[6] its BuildingStarted event (type, data), applied
-- and emitted as any move's. Used for a fresh round and to rebuild a warehouse Redis lost; of several
-- replicas racing to load one game only the first writes anything. Replies {0} when it was there.
if redis.call('EXISTS', META) == 1 then return {0} end
local doc = cjson.decode(ARGV[3])
for field, value in pairs(doc.meta) do redis.call('HSET', META, field, value) end
for _, name in ipairs({'seat', 'where', 'hand', 'handfrom', 'newest', 'seatver', 'order', 'finished', 'piles',
                      'looking', 'cmds'}) do
  for field, value in pairs(doc[name] or {}) do redis.call('HSET', key(name), field, value) end
end
for p, list in pairs(doc.reserve or {}) do
  if #list > 0 then redis.call('HSET', key('reserve'), p, cjson.encode(list)) end
end
for p, squares in pairs(doc.ships or {}) do
  for square, placed in pairs(squares) do redis.call('HSET', key('ship:' .. p), square, placed) end
end
-- The face-down grabs to come, in order, with the FairRng counter after each (PRIVATE: never sent).
for _, tile in ipairs(doc.facedown or {}) do redis.call('RPUSH', key('facedown'), tile) end
for _, draw_end in ipairs(doc.facedown_draws or {}) do redis.call('RPUSH', key('facedown_draws'), draw_end) end
for _, tile in ipairs(doc.faceup or {}) do redis.call('SADD', key('faceup'), tile) end
redis.call('SET', key('durable'), doc.meta.seq)
if ARGV[4] and ARGV[4] ~= '' then
  COMMAND = ARGV[4]
  apply_events(5)
  if CMD ~= '' then
    local seq = tonumber(meta('seq'))
    redis.call('HSET', key('cmds'), CMD, seq .. ',' .. seq)
  end
end
local reply = {1}
for i = 1, #emitted do reply[#reply + 1] = emitted[i] end
return reply
