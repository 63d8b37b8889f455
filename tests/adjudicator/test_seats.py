"""Resignations, bots and substitutes through the adjudicator: only a seat's current controller plays it."""
from __future__ import annotations

import pytest

from starbase_core.audit import PASS, audit_game
from starbase_core.gamestream import ends_game, replay
from starbase_rules.contract import RuleViolation
from starbase_rules.registry import get_game
from tests.support import tally
from tests.support.in_memory import adjudicator, play, refused, store  # noqa: F401 (fixtures)

tally.register()


async def test_in_a_two_player_game_the_resigner_concedes_and_the_game_ends_with_them_last(adjudicator, store):
    await adjudicator.create_game("two", "tally", ["ann", "bob"], {})
    await play(adjudicator, "two", "ann", {"type": "Add", "points": 3})
    stored = await play(adjudicator, "two", "ann", {"type": "Resign"})

    assert [e.type for e in stored] == ["PlayerResigned", "GameEnded"]
    assert stored[0].data == {"player": "ann", "by": "ann", "level": "normal"}
    assert stored[0].meta["command"] == {"type": "Resign"} and stored[0].meta["platform"] is True
    ended = stored[1]
    assert ends_game(ended) and ended.data["reason"] == "resigned" and ended.data["resigned"] == ["ann"]
    assert [(s["player"], s["rank"]) for s in ended.data["standings"]] == [("bob", 1), ("ann", 2)]
    await refused("GAME_OVER", adjudicator, "two", "bob", {"type": "EndTurn"})
    assert audit_game("two", await store.read("game.two"), get_game).verdict == PASS


async def test_in_a_three_player_game_a_bot_plays_the_resigned_seat_and_only_the_bot(adjudicator, store):
    await adjudicator.create_game("three", "tally", ["ann", "bob", "cyd"], {})
    stored = await play(adjudicator, "three", "ann", {"type": "Resign"})
    assert [e.type for e in stored] == ["PlayerResigned"]                # two people remain: it goes on

    await refused("NOT_IN_CONTROL", adjudicator, "three", "ann", {"type": "EndTurn"})
    await refused("NOT_IN_CONTROL", adjudicator, "three", "ann", {"type": "EndTurn"}, played_by="bot:strong")
    await refused("NOT_IN_CONTROL", adjudicator, "three", "bob", {"type": "EndTurn"}, played_by="bot:normal")
    played = await play(adjudicator, "three", "ann", {"type": "EndTurn"}, played_by="bot:normal")
    assert played[0].actor == "ann" and played[0].meta["played_by"] == "bot:normal"

    view = await adjudicator.view("three", "bob")
    assert view["seats"][0] == {"player": "ann", "controller": "bot:normal", "bot": "normal", "resigned": True}
    assert view["seats"][1]["controller"] == "bob" and view["seats"][1]["bot"] is None

    ended = await play(adjudicator, "three", "cyd", {"type": "Resign"})   # one person left: the end
    assert ended[-1].data["reason"] == "resigned" and ended[-1].data["resigned"] == ["ann", "cyd"]
    assert [(s["player"], s["rank"]) for s in ended[-1].data["standings"]] == [("bob", 1), ("cyd", 2), ("ann", 3)]
    assert audit_game("three", await store.read("game.three"), get_game).verdict == PASS


async def test_a_substitute_takes_a_bot_seat_and_then_only_the_substitute_plays_it(adjudicator, store):
    await adjudicator.create_game("sub", "tally", ["ann", "bob", "cyd"], {})
    await play(adjudicator, "sub", "ann", {"type": "Resign"})
    await refused("NOT_A_SUBSTITUTE", adjudicator, "sub", "ann", {"type": "TakeSeat"})
    await refused("ALREADY_IN_GAME", adjudicator, "sub", "ann", {"type": "TakeSeat"}, played_by="bob")
    await refused("SEAT_NOT_FREE", adjudicator, "sub", "bob", {"type": "TakeSeat"}, played_by="dan")
    await refused("NOT_A_PERSON", adjudicator, "sub", "ann", {"type": "TakeSeat"}, played_by="bot:easy")

    taken = await play(adjudicator, "sub", "ann", {"type": "TakeSeat"}, played_by="dan")
    assert taken[0].type == "SeatTaken" and taken[0].data == {"player": "ann", "by": "dan"}
    await refused("NOT_IN_CONTROL", adjudicator, "sub", "ann", {"type": "EndTurn"}, played_by="bot:normal")
    await refused("NOT_IN_CONTROL", adjudicator, "sub", "ann", {"type": "EndTurn"})
    moved = await play(adjudicator, "sub", "ann", {"type": "Add", "points": 2}, played_by="dan")
    assert moved[0].actor == "ann" and moved[0].meta["played_by"] == "dan"

    # The substitute gives the seat back to a bot, and may not come back to this game.
    await play(adjudicator, "sub", "ann", {"type": "Resign"}, played_by="dan")
    await refused("ALREADY_LEFT", adjudicator, "sub", "ann", {"type": "TakeSeat"}, played_by="dan")
    record = await adjudicator.record("sub")
    assert record.seats.controllers["ann"] == "bot:normal" and record.seats.resigned == ["ann"]
    assert record.state.scores["ann"] == 2
    # The clock may play any seat's default.
    assert (await play(adjudicator, "sub", "ann", {"type": "EndTurn"}, played_by="clock"))[0].meta["played_by"] == "clock"


async def test_a_table_of_bots_and_one_person_the_bots_seats_are_played_by_bots_only(adjudicator, store):
    options = {"bots": {"b1": "easy", "b2": "strong"}}
    await adjudicator.create_game("solo", "tally", ["ann", "b1", "b2"], options)
    await play(adjudicator, "solo", "ann", {"type": "EndTurn"})
    await refused("NOT_IN_CONTROL", adjudicator, "solo", "b1", {"type": "EndTurn"})
    await refused("NOT_IN_CONTROL", adjudicator, "solo", "b1", {"type": "EndTurn"}, played_by="bot:strong")
    await play(adjudicator, "solo", "b1", {"type": "EndTurn"}, played_by="bot:easy")
    ended = await play(adjudicator, "solo", "ann", {"type": "Resign"})       # nobody left: over, ann last
    assert [(s["player"], s["rank"]) for s in ended[-1].data["standings"]] == [("b1", 1), ("b2", 1), ("ann", 3)]


@pytest.mark.parametrize("bots, problem", [
    ({"b1": "godlike"}, "bot level 'godlike'"),
    ({"zed": "easy"}, "bot seat 'zed' is not a player"),
    ({"ann": "easy", "b1": "easy"}, "at least one seat must be a person's"),
    (["b1"], "bots must map seat ids"),
])
async def test_bad_bot_seats_are_refused_when_the_game_is_created(adjudicator, bots, problem):
    with pytest.raises(RuleViolation) as refusal:
        await adjudicator.create_game("bad", "tally", ["ann", "b1"], {"bots": bots})
    assert refusal.value.code == "BAD_OPTION" and problem in refusal.value.message


async def test_platform_commands_are_for_people_only_and_refused_if_malformed(adjudicator):
    await adjudicator.create_game("p", "tally", ["ann", "bob", "cyd"], {})
    for played_by in ("clock", "platform", "bot:normal"):
        await refused("NOT_A_PERSON", adjudicator, "p", "ann", {"type": "Resign"}, played_by=played_by)
    await refused("MALFORMED_COMMAND", adjudicator, "p", "ann", {"type": "Resign", "now": True})
    await refused("MALFORMED_COMMAND", adjudicator, "p", "ann", {"type": "Undo", "count": "all"})
    await refused("BAD_PLAYED_BY", adjudicator, "p", "ann", {"type": "EndTurn"}, played_by="a b")


async def test_forced_moves_are_accepted_from_the_platform_only_when_forced(adjudicator, store):
    await adjudicator.create_game("f", "tally", ["ann", "bob"], {})
    await refused("NOT_FORCED", adjudicator, "f", "ann", {"type": "EndTurn"}, played_by="platform")
    await play(adjudicator, "f", "ann", {"type": "Fold"})
    await play(adjudicator, "f", "bob", {"type": "EndTurn"})
    forced = await play(adjudicator, "f", "ann", {"type": "Pass"}, played_by="platform")
    assert forced[0].meta["played_by"] == "platform" and forced[0].actor == "ann"
    record = replay("f", await store.read("game.f"), get_game)
    assert record.state.turn == 3
