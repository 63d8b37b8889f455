"""Who owes a decision after a command comes from the command's own reply (Submit's `turn`): the replica
that sent it asks the adjudicator nothing more, its turn (who owes since which envelope: the `due_at`)
is the clock's rule applied to the store and the one shared in Redis, every replica shows who owes, and
without the reply's turn (an older adjudicator) the tracker asks `ToAct` as before, to the same result."""
import asyncio
import json

import httpx
import pytest

from lobby.loop import tracker
from tests.support.loop import eventually
from tests.support.stack import another_lobby, another_lobby_runtime, seat_and_start

pytestmark = pytest.mark.integration

LIMIT = 3600


class Counting:
    """The lobby's real adjudicator client, counting its `ToAct` calls; `turns=False` hides Submit's
    turn, as an adjudicator older than the field would."""

    def __init__(self, client, turns: bool = True):
        self._client, self._turns, self.asked = client, turns, 0

    async def to_act(self, game_id: str) -> dict:
        self.asked += 1
        return await self._client.to_act(game_id)

    def __getattr__(self, name: str):
        if name == "submit_with_turn" and not self._turns:
            raise AttributeError(name)
        return getattr(self._client, name)


async def expected_owed(stack, game_id: str) -> dict[str, list]:
    """From the store alone, the clock's rule: who owes (the adjudicator's `to_act`) since which envelope:
    their own last envelope that changed the game, or else the first envelope of the command after which
    they were first listed (a Think changes nothing: testjack's commands are one envelope each)."""
    envelopes = await stack.store.read(f"game.{game_id}")
    owing = (await stack.runtime.adjudicator.to_act(game_id))["to_act"]
    owed = {}
    for player in owing:
        since = next(e for e in reversed(envelopes)
                     if e.type != "CommandHadNoEffect" and (e.actor != player or e.type == "GameCreated"))
        own = [e for e in envelopes if e.actor == player and e.type != "CommandHadNoEffect"]
        since = own[-1] if own and own[-1].seq > since.seq else since
        owed[player] = [since.seq, since.time]
    return owed


async def play(stack, players, game_id: str, moves: list[str], replicas: list[httpx.AsyncClient]) -> None:
    """Each move by whoever is to act, through the first replica; after each, this replica's turn and the
    one shared in Redis say what the store implies, and every replica's seats show who owes."""
    by_id = {p.player_id: p for p in players}
    tracker = stack.runtime.loop.tracker
    for move in moves:
        mover = by_id[(await stack.runtime.adjudicator.to_act(game_id))["to_act"][0]]
        await mover.ok(mover.post(f"/games/{game_id}/commands", {"command": {"type": move}}))
        want, last = await expected_owed(stack, game_id), await stack.store.last_seq(f"game.{game_id}")
        ended = (await stack.runtime.adjudicator.to_act(game_id))["ended"]

        async def learnt_here():
            held = await stack.runtime.redis.get(tracker.key(game_id))
            turn = stack.runtime.loop.turns.get(game_id)
            return held and json.loads(held)["seq"] == last and (turn is None if ended else turn.seq == last) or None
        await eventually(learnt_here, f"the turn after {move}")
        assert json.loads(await stack.runtime.redis.get(tracker.key(game_id))) == \
            {"seq": last, "ended": ended, "owed": want}, move
        if not ended:
            turn = stack.runtime.loop.turns.get(game_id)
            assert {p: [o.since_seq, o.since] for p, o in turn.owed.items()} == want, move
        for http in replicas:
            async def shown(http=http):
                table = (await http.get(f"/tables/{game_id}", headers=mover.auth)).json()
                return {s["player_id"] for s in table["seats"] if s["to_act"]} == set(want) or None
            await eventually(shown, f"{http.base_url} to show {sorted(want)} owing after {move}")


async def learnt(stack, game_id: str) -> None:
    """The replica's tracker holds the game's turn at its last seq (the start's look is done)."""
    last = await stack.store.last_seq(f"game.{game_id}")

    async def check():
        turn = stack.runtime.loop.turns.get(game_id)
        return turn is not None and turn.seq == last or None
    await eventually(check, "the game's turn")


async def test_a_commands_reply_gives_the_turn_every_replica_then_shows(stack, http, register):
    ann, bob = await register("ann"), await register("bob")
    game_id = await seat_and_start([ann, bob], "testjack", {"decision_seconds": LIMIT})
    await learnt(stack, game_id)
    counting = stack.runtime.games.adjudicator = Counting(stack.runtime.games.adjudicator)
    stack.runtime.loop.tracker.adjudicator = counting
    await play(stack, [ann, bob], game_id, ["Think", "Draw", "Think", "Stand", "Think"], [http])
    assert counting.asked == 0, "the replica that sent the commands asked the adjudicator who owes"
    # A replica started now reads the turn from Redis; one running meanwhile learns it from there too.
    async with another_lobby(stack) as other, httpx.AsyncClient(base_url=f"http://{other}", timeout=20) as http_b:
        await play(stack, [ann, bob], game_id, ["Think"], [http, http_b])
        await play(stack, [ann, bob], game_id, ["Draw"], [http, http_b])


async def test_a_game_played_to_its_end_leaves_nobody_owing_on_either_replica(stack, http, register):
    ann, bob = await register("ann"), await register("bob")
    game_id = await seat_and_start([ann, bob], "testjack", {"decision_seconds": LIMIT})
    await learnt(stack, game_id)
    async with another_lobby(stack) as other, httpx.AsyncClient(base_url=f"http://{other}", timeout=20) as http_b:
        await play(stack, [ann, bob], game_id, ["Stand", "Stand"], [http, http_b])
    assert (await stack.runtime.adjudicator.to_act(game_id))["ended"]


async def test_without_the_turn_in_the_reply_the_tracker_asks_and_learns_the_same(stack, http, register):
    ann, bob = await register("ann"), await register("bob")
    game_id = await seat_and_start([ann, bob], "testjack", {"decision_seconds": LIMIT})
    await learnt(stack, game_id)
    counting = Counting(stack.runtime.games.adjudicator, turns=False)
    stack.runtime.games.adjudicator = stack.runtime.loop.tracker.adjudicator = counting
    await play(stack, [ann, bob], game_id, ["Think", "Draw", "Stand"], [http])
    assert counting.asked >= 1


async def test_another_replica_adopts_the_senders_turn_without_asking_the_adjudicator(stack, http, register,
                                                                                       monkeypatch):
    """The replica that did not send a command gives the sender its head start and adopts the turn the
    sender stored: no `ToAct` call and no store read for a command it did not send. (The head start is
    longer here than in production: on a loaded machine the sender may need more than 50 ms to store its
    turn, and the other replica then works it out itself, as it must.)"""
    monkeypatch.setattr(tracker, "SENDER_HEAD_START", 0.5)
    ann, bob = await register("ann"), await register("bob")
    game_id = await seat_and_start([ann, bob], "testjack", {"decision_seconds": LIMIT})
    await learnt(stack, game_id)
    async with another_lobby_runtime(stack) as (other, runtime_b), \
            httpx.AsyncClient(base_url=f"http://{other}", timeout=20) as http_b:
        counting = runtime_b.loop.tracker.adjudicator = Counting(runtime_b.loop.tracker.adjudicator)
        await play(stack, [ann, bob], game_id, ["Think", "Draw", "Think", "Think", "Stand", "Think"], [http, http_b])
        assert counting.asked == 0, "the other replica worked out turns the sender had already stored"


async def test_turns_told_within_the_window_go_to_redis_in_one_send_each_compared_on_its_seq(stack):
    tracker_here, redis = stack.runtime.loop.tracker, stack.runtime.redis
    sends, real = [], tracker_here._line.evalsha_many

    async def counting(sha, source, calls):
        sends.append(len(calls))
        return await real(sha, source, calls)

    tracker_here._line.evalsha_many = counting
    turn = lambda seq: json.dumps({"seq": seq, "ended": False, "owed": {}})      # noqa: E731
    await redis.set(tracker_here.key("ahead"), turn(9))         # another replica stored a later turn
    await redis.script_flush()                                  # a restarted Redis: the script sent again whole
    told = [("first", 3), ("second", 4), ("ahead", 5)]
    replies = await asyncio.gather(*(tracker_here._store_told([tracker_here.key(game)], [seq, turn(seq), LIMIT])
                                     for game, seq in told))
    assert sends == [3]                                         # three turns, one send
    assert replies[:2] == [1, 1] and json.loads(replies[2])["seq"] == 9     # the later one is kept, and said
    assert [json.loads(await redis.get(tracker_here.key(game)))["seq"] for game, _ in told] == [3, 4, 9]
    assert await tracker_here._store_told([tracker_here.key("first")], [2, turn(2), LIMIT]) != 1   # never back
    assert sends == [3, 1]


async def test_this_replicas_commands_store_their_turn_with_no_look_started(stack, http, register, monkeypatch):
    """A reply that carries on the turn held here is stored straight from the reply: no look (a task, a
    wait) per command, even when the follow brings the command's envelopes first; the turns are those
    the looks would give (`play` checks them against the store and Redis)."""
    ann, bob = await register("ann"), await register("bob")
    game_id = await seat_and_start([ann, bob], "testjack", {"decision_seconds": LIMIT})
    await learnt(stack, game_id)
    tracker_here = stack.runtime.loop.tracker
    looks, real_work = [], tracker_here._work

    async def counted(game):
        looks.append(game)
        await real_work(game)
    monkeypatch.setattr(tracker_here, "_work", counted)
    await play(stack, [ann, bob], game_id, ["Think", "Draw", "Think", "Think"], [http])
    await tracker_here.settled()
    assert looks.count(game_id) == 0, "a look for a command of this replica"


async def test_a_told_turn_that_redis_refused_is_stored_by_a_look_after_all(stack, http, register, monkeypatch):
    ann, bob = await register("ann"), await register("bob")
    game_id = await seat_and_start([ann, bob], "testjack", {"decision_seconds": LIMIT})
    await learnt(stack, game_id)
    tracker_here = stack.runtime.loop.tracker
    failures, real = [ConnectionError("Redis went away")], tracker_here._line.evalsha_many

    async def failing_once(sha, source, calls):
        if failures:
            raise failures.pop()
        return await real(sha, source, calls)
    monkeypatch.setattr(tracker_here._line, "evalsha_many", failing_once)
    await play(stack, [ann, bob], game_id, ["Draw"], [http])      # the turn reaches Redis and this replica
    assert not failures
