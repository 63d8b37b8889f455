-- Shared by every warehouse script; the loader puts it in front of each script's body.
--
-- KEYS[1] is the game's meta hash `trucker:{<game>}:meta`. Every other key of the game carries the
-- same hash tag, so a Redis Cluster keeps the whole warehouse on one shard and a script may touch all
-- of them atomically. ARGV[1] is the command id ('' for none), ARGV[2] the actor; the script's own follow.
--
-- No rule lives here. The rules engine decides every move in Python (`trucker.tables`), on what it
-- read of the warehouse; a script only (1) checks the guards the decision named -- that the shared
-- facts it relied on still hold (the ship version it was decided on, the face-up tile still there, the
-- order tile still free, ...) -- and (2) applies the engine's events to the warehouse (`APPLY`, the
-- Redis mirror of the engine's `build_evolve`), numbering them into the outbox, all at once. A guard
-- that no longer holds makes nothing change: the script answers which one, and the service reads the
-- warehouse again and has the engine decide again (then the engine refuses, with its own code, or the
-- move goes through on the new facts).
-- Replies: {1, event_json...} applied; {3, guard} a guard no longer holds, nothing changed; {2, first_seq,
-- last_seq} the command id was applied before (a retry); {-1} the warehouse is not in Redis.

local META = KEYS[1]
local PREFIX = string.sub(META, 1, #META - 4)
local function key(name) return PREFIX .. name end

local CMD = ARGV[1]
local ACTOR = ARGV[2]
local clock = redis.call('TIME')
-- Redis's clock, shared by every replica: when the sand runs out on START building stops at once.
local NOW = tonumber(clock[1]) + tonumber(clock[2]) / 1000000

local Stale = {}
local function stale(guard) error(setmetatable({guard = guard}, Stale)) end

local function meta(field) return redis.call('HGET', META, field) end
local function hget(name, field) return redis.call('HGET', key(name), field) end
local function has(name, field) return redis.call('HEXISTS', key(name), field) == 1 end
local function full(value) return string.format('%.17g', value) end   -- a time, read back exactly

-- The rules engine's command (JSON) goes with the first event of a run, so an auditor can re-run it;
-- and who played it when not the seat's own player (a bot: `bot:<level>`), which the audit checks.
local COMMAND = nil
local PLAYED_BY = nil
local emitted = {}

-- `data` is the event's JSON exactly as the engine wrote it (times keep all their digits). `meta` (JSON,
-- optional) is the meta the platform's transaction decided for it (the end of building): stored as it
-- is. Without it the relay writes the meta of a move from `draw_end` and `command`.
local function emit(event_type, data, meta_json)
  local seq = redis.call('HINCRBY', META, 'seq', 1)
  local head = '{"seq":' .. seq .. ',"type":' .. cjson.encode(event_type) .. ',"epoch":' .. cjson.encode(meta('epoch'))
  if meta_json then
    head = head .. ',"meta":' .. meta_json
  else
    head = head .. ',"draw_end":' .. tonumber(meta('draw_end') or '0')
    if #emitted == 0 and COMMAND then
      head = head .. ',"command":' .. COMMAND
      if PLAYED_BY then head = head .. ',"played_by":' .. cjson.encode(PLAYED_BY) end
    end
  end
  if ACTOR ~= '' then head = head .. ',"actor":' .. cjson.encode(ACTOR) end
  if CMD ~= '' then head = head .. ',"command_id":' .. cjson.encode(CMD) end
  local encoded = head .. ',"data":' .. data .. '}'
  redis.call('HSET', key('outbox'), seq, encoded)
  emitted[#emitted + 1] = encoded
end

local function reserve_of(p)
  local raw = hget('reserve', p)
  if not raw then return {} end
  return cjson.decode(raw)
end

local function set_reserve(p, list)
  if #list == 0 then redis.call('HDEL', key('reserve'), p) else redis.call('HSET', key('reserve'), p, cjson.encode(list)) end
end

-- ------------------------------------------------------------------------------------------ guards
local GUARDS = {
  epoch = function(g) return meta('epoch') == g[2] end,
  seat = function(g) return tonumber(hget('seatver', ACTOR) or '0') == tonumber(g[2]) end,
  building = function(g)
    if meta('status') ~= 'building' then return false end
    if tonumber(meta('timer_space')) == 0 and NOW >= tonumber(meta('runs_out_at')) then stale('time_up') end
    return true
  end,
  facedown = function(g) return redis.call('LLEN', key('facedown')) > 0 end,
  faceup = function(g) return redis.call('SISMEMBER', key('faceup'), g[2]) == 1 end,
  order = function(g) return not has('order', tostring(g[2])) end,
  finished = function(g) return redis.call('HLEN', key('finished')) == tonumber(g[2]) end,
  pile = function(g) return not has('piles', tostring(g[2])) end,
  draws = function(g) return tonumber(meta('draw_end')) == tonumber(g[2]) end,
  timer = function(g)
    return tonumber(meta('timer_space')) == tonumber(g[2]) and tonumber(meta('runs_out_at')) == tonumber(g[3])
  end,
  -- who plays the move ('' its seat's player, else `bot:<level>` or a substitute's id) controls the
  -- seat: a seat held by a bot or a substitute is played by them only, never by its own player
  -- (`state_doc`'s meta `controllers`, from the stream's seat control)
  controller = function(g) return (cjson.decode(meta('controllers') or '{}')[ACTOR] or '') == g[2] end,
}

-- Every guard before the first write: a guard that fails leaves the warehouse as it was.
local function check_guards(guards)
  for _, g in ipairs(guards) do
    local check = GUARDS[g[1]]
    if not check or not check(g) then stale(g[1]) end
  end
end

-- ------------------------------------------------------------------------------ the engine's events
-- Each takes the event's data (decoded) and its JSON, changes the warehouse as the engine's evolve
-- changes its state, and returns the JSON to emit (a face-down grab names its tile only here).
local FACE_DOWN = '"(face-down)"'   -- the engine decides a face-down grab; the pile's head is its tile

local APPLY = {}

APPLY.BuildingStarted = function(d, data)
  redis.call('HSET', META, 'started', '1', 'status', 'building', 'timer_space', d.timer_space,
             'runs_out_at', full(d.runs_out_at))
  return data
end

APPLY.ComponentGrabbed = function(d, data)
  local p, tile = d.player, d.component
  if d.source == 'face_down' then
    tile = redis.call('LPOP', key('facedown'))
    redis.call('HSET', META, 'draw_end', redis.call('LPOP', key('facedown_draws')))
    local at = string.find(data, FACE_DOWN, 1, true)
    data = string.sub(data, 1, at - 1) .. cjson.encode(tile) .. string.sub(data, at + #FACE_DOWN)
  elseif d.source == 'face_up' then
    redis.call('SREM', key('faceup'), tile)
  else
    local kept, found = {}, false
    for _, t in ipairs(reserve_of(p)) do
      if t == tile and not found then found = true else kept[#kept + 1] = t end
    end
    set_reserve(p, kept)
  end
  redis.call('HDEL', key('newest'), p)           -- grabbing fixes the newest component in place
  redis.call('HSET', key('hand'), p, tile)
  redis.call('HSET', key('handfrom'), p, d.source == 'reserve' and 'reserve' or 'warehouse')
  redis.call('HSET', key('where'), tile, 'hand:' .. p)
  return data
end

APPLY.ComponentPlaced = function(d, data)
  local p, col, row = d.player, d.square[1], d.square[2]
  local from_reserve = hget('handfrom', p) == 'reserve'
  redis.call('HDEL', key('hand'), p)
  redis.call('HDEL', key('handfrom'), p)
  redis.call('HSET', key('ship:' .. p), col .. ',' .. row, d.component .. '|' .. d.rotation)
  redis.call('HSET', key('newest'), p, cjson.encode({component = d.component, col = col, row = row, reserve = from_reserve}))
  redis.call('HSET', key('where'), d.component, 'ship:' .. p)
  return data
end

APPLY.NewestMoved = function(d, data)
  local p = d.player
  local newest = cjson.decode(hget('newest', p))
  redis.call('HDEL', key('ship:' .. p), newest.col .. ',' .. newest.row)
  redis.call('HSET', key('ship:' .. p), d.square[1] .. ',' .. d.square[2], d.component .. '|' .. d.rotation)
  newest.col, newest.row = d.square[1], d.square[2]
  redis.call('HSET', key('newest'), p, cjson.encode(newest))
  return data
end

APPLY.ComponentReturned = function(d, data)
  local p = d.player
  if d.source == 'hand' then
    redis.call('HDEL', key('hand'), p)
    redis.call('HDEL', key('handfrom'), p)
  else
    local newest = cjson.decode(hget('newest', p))
    redis.call('HDEL', key('ship:' .. p), newest.col .. ',' .. newest.row)
    redis.call('HDEL', key('newest'), p)
  end
  redis.call('SADD', key('faceup'), d.component)
  redis.call('HSET', key('where'), d.component, 'face_up')
  return data
end

APPLY.ComponentReserved = function(d, data)
  local p, reserve = d.player, reserve_of(d.player)
  reserve[#reserve + 1] = d.component
  set_reserve(p, reserve)
  redis.call('HDEL', key('hand'), p)
  redis.call('HDEL', key('handfrom'), p)
  redis.call('HSET', key('where'), d.component, 'reserve:' .. p)
  return data
end

APPLY.PileTaken = function(d, data)
  redis.call('HSET', key('piles'), tostring(d.pile), d.player)
  redis.call('HSET', key('looking'), d.player, d.pile)
  return data
end

APPLY.PileReturned = function(d, data)
  redis.call('HDEL', key('looking'), d.player)
  redis.call('HDEL', key('piles'), tostring(d.pile))
  return data
end

APPLY.TimerTurned = function(d, data)
  redis.call('HSET', META, 'timer_space', d.timer_space, 'runs_out_at', full(d.runs_out_at))
  return data
end

APPLY.ShipFinished = function(d, data)
  redis.call('HSET', key('order'), tostring(d.order_tile), d.player)
  redis.call('HSET', key('finished'), d.player, d.order_tile)
  redis.call('HDEL', key('newest'), d.player)
  return data
end

-- What a first look at a pile changes besides its event: the meta fields the engine's state moved
-- (piles, draw counter, cards seen) and, since the counter moved, the face-down grabs to come.
local function apply_extras(extras)
  for field, value in pairs(extras.meta or {}) do redis.call('HSET', META, field, value) end
  if extras.facedown then
    redis.call('DEL', key('facedown'), key('facedown_draws'))
    for _, tile in ipairs(extras.facedown) do redis.call('RPUSH', key('facedown'), tile) end
    for _, after in ipairs(extras.facedown_draws) do redis.call('RPUSH', key('facedown_draws'), after) end
  end
end

-- Apply and emit the events in ARGV[first], ARGV[first + 1], ... (type, data JSON alternating).
local function apply_events(first)
  for i = first, #ARGV, 2 do
    local apply = APPLY[ARGV[i]]
    if not apply then error('no warehouse change for event ' .. ARGV[i]) end
    emit(ARGV[i], apply(cjson.decode(ARGV[i + 1]), ARGV[i + 1]))
  end
end

-- Marks the warehouse's events up to `seq` durable (a relay stored them in the event store), so they
-- leave the outbox; only while the warehouse is still the load `epoch` (a load since numbers its own
-- events). Either may be '' or nil: nothing to mark. Returns the durable seq.
local function mark_durable(seq, epoch)
  if redis.call('EXISTS', META) == 0 then return 0 end
  local durable = tonumber(redis.call('GET', key('durable')) or '0')
  seq = tonumber(seq)
  if seq and seq > durable and epoch and epoch ~= '' and meta('epoch') == epoch then
    for s = durable + 1, seq do redis.call('HDEL', key('outbox'), s) end
    redis.call('SET', key('durable'), seq)
    durable = seq
  end
  return durable
end

-- {2, first seq, last seq} if the command id was applied before (a retry), else nil.
local function applied_before()
  if CMD == '' then return nil end
  local done = hget('cmds', CMD)
  if not done then return nil end
  local first, last = string.match(done, '(%d+),(%d+)')
  return {2, tonumber(first), tonumber(last)}
end

local function run(body)
  if redis.call('EXISTS', META) == 0 then return {-1} end
  local before = applied_before()
  if before then return before end
  local ok, err = pcall(body)
  if not ok then
    if getmetatable(err) == Stale then return {3, err.guard} end
    error(err)
  end
  if CMD ~= '' and #emitted > 0 then
    local last = tonumber(meta('seq'))
    redis.call('HSET', key('cmds'), CMD, (last - #emitted + 1) .. ',' .. last)
  end
  local reply = {1}
  for i = 1, #emitted do reply[#reply + 1] = emitted[i] end
  return reply
end
