"""My games, most urgent first, and who owes a decision on every seat and view (through the API, on a
real stack: the turn reaches the lobby from the envelopes its feed follows)."""
from datetime import datetime, timedelta

import pytest

from tests.support.loop import eventually
from tests.support.stack import seat_and_start

pytestmark = pytest.mark.integration


async def mine(player, **params) -> list[str]:
    page = await player.ok(player.get("/players/me/tables", **params))
    assert page["total"] == len(page["items"])
    return [t["table_id"] for t in page["items"]]


async def listed_as(player, expected: list[str], **params) -> list[str]:
    async def check():
        found = await mine(player, **params)
        return found if found == expected else None
    try:
        return await eventually(check, f"{player.name}'s tables to be {expected}")
    except AssertionError:
        raise AssertionError(f"{player.name}'s tables are {await mine(player, **params)}, not {expected}") from None


async def stand(player, game_id):
    await player.ok(player.post(f"/games/{game_id}/commands", {"command": {"type": "Stand"}}))


async def test_my_games_put_the_decisions_i_owe_first_longest_waiting_first(stack, register):
    ann, bob, cy = await register("ann"), await register("bob"), await register("cy")
    t1 = await seat_and_start([ann, bob], "testjack")           # ann owes (the first seat acts first)
    t2 = await seat_and_start([bob, ann], "testjack")           # bob owes, then ann once bob stands
    t3 = await seat_and_start([ann, cy], "testjack")            # ann stands: cy owes
    t4 = (await ann.ok(ann.post("/tables", {"game": "testjack", "seats": 2})))["table_id"]   # open
    t5 = await seat_and_start([ann, bob], "testjack")           # played to the end
    await stand(ann, t3)
    await stand(bob, t2)
    await stand(ann, t5)
    await stand(bob, t5)

    # ann owes in t1 (since its start) and t2 (since bob stood, later); then her other game in play, then
    # the open table. The finished one only when asked for.
    assert await listed_as(ann, [t1, t2, t3, t4]) == [t1, t2, t3, t4]
    assert await mine(ann, to_act="true") == [t1, t2]
    assert await mine(ann, to_act="false") == [t3, t4]
    assert await listed_as(ann, [t5], status="finished") == [t5]
    assert await listed_as(bob, [t2, t1]) == [t2, t1]         # bob owes nothing: newest game first
    assert await listed_as(cy, [t3]) == [t3]

    await stand(ann, t2)                                       # the game ends
    await stand(ann, t1)                                       # now bob owes in t1
    assert await listed_as(ann, [t3, t1, t4]) == [t3, t1, t4]  # nothing owed: newest game in play first
    assert await listed_as(bob, [t1]) == [t1]
    assert await mine(bob, to_act="true") == [t1]
    assert t2 in await mine(ann, status="finished")


async def test_every_seat_and_every_view_says_who_owes_a_decision_and_until_when(stack, register):
    ann, bob, eve = await register("ann"), await register("bob"), await register("eve")
    game_id = await seat_and_start([ann, bob], "testjack", {"decision_seconds": 3600})
    untimed = await seat_and_start([bob, ann], "testjack")

    async def seats_owing(table_id):
        table = await eve.ok(eve.get(f"/tables/{table_id}"))
        owing = [(s["player_id"], s["due_at"]) for s in table["seats"] if s["to_act"]]
        return owing or None

    (player, due), = await eventually(lambda: seats_owing(game_id), "a seat to owe a decision")
    assert player == ann.player_id
    created = await stack.store.read(f"game.{game_id}")       # the clock counts from the setup's envelopes
    since = datetime.fromisoformat(created[-1].time.replace("Z", "+00:00"))
    assert datetime.fromisoformat(due.replace("Z", "+00:00")) - since == timedelta(seconds=3600)
    view = await eve.ok(eve.get(f"/games/{game_id}/view"))
    assert view["to_act"] == [ann.player_id] and view["due_at"] == {ann.player_id: due}
    assert (await eventually(lambda: seats_owing(untimed), "the untimed table's turn")) == [(bob.player_id, None)]

    await stand(ann, game_id)
    (player, due_bob), = await eventually(
        lambda: _unless(seats_owing(game_id), lambda owing: owing[0][0] == ann.player_id), "bob to owe")
    assert player == bob.player_id and due_bob > due
    mine_view = await bob.ok(bob.get(f"/games/{game_id}/view"))
    assert mine_view["to_act"] == [bob.player_id] and mine_view["due_at"] == {bob.player_id: due_bob}
    listed = await bob.ok(bob.get("/tables", game="testjack", status="playing"))
    seat = next(s for t in listed["items"] if t["table_id"] == game_id for s in t["seats"]
                if s["player_id"] == bob.player_id)
    assert seat["to_act"] is True and seat["due_at"] == due_bob


async def _unless(found, wrong):
    value = await found
    return None if value is None or wrong(value) else value
