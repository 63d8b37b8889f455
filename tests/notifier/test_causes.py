"""Which notifications each append causes: a pure fold of the streams (in-memory store, real adjudicator).

Read as rules: a game tells its players it started, whose turn it is (once per decision, not once per
move), and how it ended; a table tells whom it invited; nobody who is not a player is told anything;
and the same append always gives the same notifications with the same ids (restarts, redeliveries).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from adjudicator.service import Adjudicator
from notifier.causes import Causes, appends
from notifier.kinds import GAME_ENDED, GAME_STARTED, INVITED, YOUR_TURN
from starbase_core.envelope import NewEvent
from starbase_core.gamestream import game_created
from starbase_core.seeds import MemorySeedVault
from starbase_core.store_memory import MemoryEventStore

GAME = "g1"
STREAM = f"game.{GAME}"


class Table:
    def __init__(self):
        self.store = MemoryEventStore()
        self.adjudicator = Adjudicator(self.store, MemorySeedVault())
        self.count = 0

    async def act(self, player: str, command: str) -> None:
        self.count += 1
        await self.adjudicator.submit(GAME, player, {"type": command}, f"c{self.count}")

    async def appends(self):
        return appends(await self.store.read(STREAM))


async def told(causes: Causes, table: Table) -> list[tuple[str, str]]:
    found = []
    for append in await table.appends():
        found += [(note.kind, note.player) for note in await causes.of_append(append)]
    return found


@pytest.fixture
async def table():
    made = Table()
    await made.adjudicator.create_game(GAME, "testjack", ["ann", "bob"], {})
    return made


async def test_a_game_tells_its_start_each_turn_and_its_end_with_each_place(table):
    await table.act("ann", "Stand")
    await table.act("bob", "Stand")
    causes = Causes(table.store)
    found = [(note.kind, note.player, note.details.get("place")) for append in await table.appends()
             for note in await causes.of_append(append)]
    stream = await table.store.read(STREAM)
    places = {s["player"]: s["rank"] for s in stream[-1].data["standings"]}
    assert found == [(GAME_STARTED, "ann", None), (GAME_STARTED, "bob", None), (YOUR_TURN, "ann", None),
                     (YOUR_TURN, "bob", None),
                     (GAME_ENDED, "ann", places["ann"]), (GAME_ENDED, "bob", places["bob"])]


async def test_a_player_who_acts_and_still_owes_gets_no_new_turn(table):
    await table.act("ann", "Draw")        # a dealt card (1-10) plus one: never past 21, ann still owes
    await table.act("ann", "Think")       # no effect
    await table.act("ann", "Draw")
    kinds = await told(Causes(table.store), table)
    assert kinds.count((YOUR_TURN, "ann")) == 1


async def test_the_same_append_always_gives_the_same_notifications(table):
    await table.act("ann", "Stand")
    await table.act("bob", "Stand")
    first = Causes(table.store)
    every = await table.appends()
    original = {append[-1].seq: [n.id for n in await first.of_append(append)] for append in every}
    # A redelivery to the same replica: answered from what it noted (or by folding again).
    assert [n.id for n in await first.of_append(every[1])] == original[every[1][-1].seq]
    assert [n.id for n in await first.of_append(every[-1])] == original[every[-1][-1].seq]
    # A replica (or a restart) that sees only the second command: it reads the gap from the store.
    fresh = Causes(table.store)
    assert [n.id for n in await fresh.of_append(every[2])] == original[every[2][-1].seq]
    assert [n.id for n in await fresh.of_append(every[1])] == original[every[1][-1].seq]
    assert len(set(sum(original.values(), []))) == 6


# ---- a game where the turn comes back, and where someone who is not a player is listed ----------

@dataclass
class Passed:
    type: str = "Passed"

    def model_dump(self, mode="python"):
        return {"type": self.type}


@dataclass
class PingState:
    players: list = field(default_factory=list)
    moves: int = 0


class PingPong:
    """Players pass in turn, for ever; the bank "owes" a decision too (it is not a player)."""
    name = "pingpong"

    def initial_state(self):
        return PingState()

    def parse_event(self, data):
        return Passed()

    def evolve(self, state, event):
        state.moves += 1
        return state

    def to_act(self, state):
        return [["ann", "bob"][state.moves % 2], "bank"]


async def pingpong(moves: int) -> MemoryEventStore:
    store = MemoryEventStore()
    await store.append(STREAM, [game_created("pingpong", ["ann", "bob"], {}, "c" * 64, 0)], expected_seq=0)
    for move in range(moves):
        actor = ["bob", "ann"][move % 2]
        await store.append(STREAM, [NewEvent(type="Passed", data={"type": "Passed"}, actor=actor)],
                           expected_seq=move + 1, command_id=f"m{move}")
    return store


@pytest.mark.parametrize("interval, turns_of_ann", [(0.0, 3), (3600.0, 1)])
async def test_a_game_gives_a_player_one_turn_notice_per_interval(interval, turns_of_ann):
    store = await pingpong(5)       # ann owes at creation, after moves 2 and 4
    causes = Causes(store, interval, games=lambda name: PingPong())
    found = [(n.kind, n.player) for a in appends(await store.read(STREAM)) for n in await causes.of_append(a)]
    assert found.count((YOUR_TURN, "ann")) == turns_of_ann
    assert all(player in ("ann", "bob") for _, player in found)      # never the bank


async def test_an_invitation_tells_the_invited_player_with_the_tables_game():
    store = MemoryEventStore()
    await store.append("table.t1", [NewEvent(type="TableCreated", data={"type": "TableCreated", "table_id": "t1",
                                                                          "game": "moon21", "seats": 3, "host": "ann"})],
                       expected_seq=0)
    [invited] = await store.append("table.t1", [NewEvent(type="PlayerInvited", actor="ann", data={
        "type": "PlayerInvited", "player": "cy", "by": "ann"})], expected_seq=1)
    [note] = await Causes(store).of_append([invited])
    assert (note.kind, note.player, note.game, note.table_id, note.details) == (INVITED, "cy", "moon21", "t1",
                                                                               {"by": "ann"})


async def test_an_undo_keeps_the_game_followed_and_the_turns_after_it_told():
    table = Table()
    await table.adjudicator.create_game(GAME, "testjack", ["ann", "bob"], {"rated": False})
    await table.act("ann", "Stand")          # bob's turn
    await table.act("ann", "Undo")           # ann's stand taken back: ann's turn again
    await table.act("ann", "Stand")          # bob's turn again
    assert [e.type for e in await table.store.read(STREAM)].count("CommandsUndone") == 1
    causes = Causes(table.store, turn_interval=0)
    found = await told(causes, table)
    assert GAME in causes.book.followed      # the undo did not make the notifier drop the game
    assert found.count((YOUR_TURN, "bob")) == 2 and found.count((YOUR_TURN, "ann")) == 2
