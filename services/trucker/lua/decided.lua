-- Append events the rules engine decided on the stream as it was at seq ARGV[3] (the last finish, or
-- the sand run out on START): they end building. ARGV[4] is the required status ('building' for the
-- last finish, 'ending' once stopped), ARGV[5] the FairRng counter after them, ARGV[6] the command
-- (JSON), then ARGV[7], ARGV[8], … alternate event type and data (JSON, kept byte for byte).
-- Only on that very state: anything applied since refuses it (STALE_STATE) and it is decided again.
return run(function()
  if meta('status') ~= ARGV[4] then refuse('NOT_BUILDING', 'building has already ended') end
  if tonumber(meta('seq')) ~= tonumber(ARGV[3]) then refuse('STALE_STATE', 'the table moved on; decide again') end
  local head = '"epoch":' .. cjson.encode(meta('epoch')) .. ',"draw_end":' .. tonumber(ARGV[5])
  if CMD ~= '' then head = head .. ',"command_id":' .. cjson.encode(CMD) end
  for i = 7, #ARGV, 2 do
    local seq = redis.call('HINCRBY', META, 'seq', 1)
    local extra = ''
    if i == 7 then extra = ',"command":' .. ARGV[6] end
    -- The platform's GameEnded (the game over at the end of building) has no actor.
    if ACTOR ~= '' and ARGV[i] ~= 'GameEnded' then extra = extra .. ',"actor":' .. cjson.encode(ACTOR) end
    local encoded = '{"seq":' .. seq .. ',"type":' .. cjson.encode(ARGV[i]) .. ',' .. head .. extra ..
                    ',"data":' .. ARGV[i + 1] .. '}'
    redis.call('HSET', key('outbox'), seq, encoded)
    emitted[#emitted + 1] = encoded
  end
  redis.call('HSET', META, 'status', 'ended', 'draw_end', tonumber(ARGV[5]))
end)
