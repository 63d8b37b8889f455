-- Shared by every warehouse script; the loader puts it in front of each script's body.
--
-- KEYS[1] is the game's meta hash `trucker:{<game>}:meta`. Every other key of the game carries the
-- same hash tag, so a Redis Cluster keeps the whole warehouse on one shard and a script may touch all
-- of them atomically. ARGV[1] is the command id ('' for none), ARGV[2] the actor; the op's own follow.
--
-- A script either refuses (every check runs before the first write, so nothing changes) or applies
-- its change, numbers its events with the game's sequence and puts them in the outbox, all at once.
-- The events are those of the rules engine (`trucker_rules.messages`), field for field.
-- Replies: {1, event_json...} applied; {0, code, message} refused; {2, first_seq, last_seq} the command
-- id was applied before (a retry); {-1} the warehouse is not in Redis (never opened, or Redis lost it).

local META = KEYS[1]
local PREFIX = string.sub(META, 1, #META - 4)
local function key(name) return PREFIX .. name end

local CMD = ARGV[1]
local ACTOR = ARGV[2]
local clock = redis.call('TIME')
-- Seconds (Unix epoch) to the millisecond: the rules engine's `at`. All replicas share this clock.
-- 13 significant digits, so the time (cjson writes 14) and its sums with whole seconds read back in
-- Python as exactly the numbers the rules engine computes from them when an auditor re-runs a command.
local NOW = (tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)) / 1000

local Refusal = {}
local function refuse(code, message) error(setmetatable({code = code, message = message}, Refusal)) end

-- The rules engine's command this script applies (set by each script before it emits): it goes with
-- the first event of the run, so an auditor can re-run it through the engine and get the same events.
local COMMAND = nil
local emitted = {}
-- cjson writes 14 significant digits; a sum of times needs 17 to read back as the very same number
-- the rules engine computes. `exact(x)` stands in for such a number until the event is encoded.
local EXACT = {}
local function exact(value)
  EXACT[#EXACT + 1] = value
  return '@exact' .. #EXACT
end
local function full(value) return string.format('%.17g', value) end

local function emit(event_type, data)
  local seq = redis.call('HINCRBY', META, 'seq', 1)
  local event = {seq = seq, type = event_type, data = data, epoch = redis.call('HGET', META, 'epoch'),
                 draw_end = tonumber(redis.call('HGET', META, 'draw_end') or '0')}
  if #emitted == 0 and COMMAND then event.command = COMMAND end
  if ACTOR ~= '' then event.actor = ACTOR end
  if CMD ~= '' then event.command_id = CMD end
  local encoded = string.gsub(cjson.encode(event), '"@exact(%d+)"', function(i) return full(EXACT[tonumber(i)]) end)
  redis.call('HSET', key('outbox'), seq, encoded)
  emitted[#emitted + 1] = encoded
  return seq
end

local function meta(field) return redis.call('HGET', META, field) end
local function hget(name, field) return redis.call('HGET', key(name), field) end
local function has(name, field) return redis.call('HEXISTS', key(name), field) == 1 end

local function check_player(p)
  if not has('seat', p) then refuse('NOT_A_PLAYER', tostring(p) .. ' is not a player of this game') end
end

-- When the sand runs out on START building stops at once, even before the end is recorded.
local function check_building()
  if meta('status') ~= 'building' then refuse('NOT_BUILDING', 'ships can only be built during the building phase') end
  if tonumber(meta('timer_space')) == 0 and NOW >= tonumber(meta('runs_out_at')) then
    refuse('TIME_UP', 'the hourglass has run out on START: building is over')
  end
end

local function check_builder(p)
  check_player(p)
  check_building()
  if has('finished', p) then refuse('ALREADY_FINISHED', 'you have finished your ship and may add nothing more') end
end

local function check_free_hand(p)
  local held = hget('hand', p)
  if held then refuse('HAND_FULL', 'you are holding ' .. held .. ': place, return or reserve it first') end
  if has('looking', p) then refuse('LOOKING_AT_PILE', 'put the adventure pile back first') end
end

local function reserve_of(p)
  local raw = hget('reserve', p)
  if not raw then return {} end
  return cjson.decode(raw)
end

local function set_reserve(p, list)
  if #list == 0 then redis.call('HDEL', key('reserve'), p) else redis.call('HSET', key('reserve'), p, cjson.encode(list)) end
end

-- Grabbing fixes the newest component in place.
local function take_into_hand(p, tile, source, command)
  COMMAND = command
  redis.call('HDEL', key('newest'), p)
  redis.call('HSET', key('hand'), p, tile)
  redis.call('HSET', key('handfrom'), p, source)
  redis.call('HSET', key('where'), tile, 'hand:' .. p)
  emit('ComponentGrabbed', {player = p, component = tile, source = source})
end

local function check_ship_version(p, expected)
  if tonumber(hget('shipver', p) or '0') ~= tonumber(expected) then
    refuse('STALE_SHIP', 'your ship changed while the placement was being checked; try again')
  end
end

local function run(body)
  if redis.call('EXISTS', META) == 0 then return {-1} end
  if CMD ~= '' then
    local done = hget('cmds', CMD)
    if done then
      local first, last = string.match(done, '(%d+),(%d+)')
      return {2, tonumber(first), tonumber(last)}
    end
  end
  local ok, err = pcall(body)
  if not ok then
    if getmetatable(err) == Refusal then return {0, err.code, err.message} end
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
