"""Old event shapes are upcast on read, never rewritten: a stream written by an older version still folds.

`data/tiny_v1_stream.json` was written by Tiny Counters v1 (events `GameSetUp{players, counters, first}`
and `Taken{player, count}`, all `v: 1`), before options and lucky numbers existed.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Literal

import pytest

from starbase_rules import Event, Rules, fold
from tests.engines.tiny_game import GAME

STORED = json.loads((Path(__file__).parent / "data" / "tiny_v1_stream.json").read_text())


def test_a_v1_stream_folds_to_the_game_it_recorded():
    assert {event["v"] for event in STORED} == {1}
    state = fold(GAME, [GAME.parse_event(data) for data in STORED])
    assert state.left == 0 and state.round == "over" and state.last_taker == "bob"
    outcome = GAME.outcome(state)
    assert [(s.player, s.rank, s.score) for s in outcome.standings] == [("bob", 1, 1), ("ann", 2, 0), ("cy", 2, 0)]


def test_upcasting_gives_current_shapes_and_leaves_the_stored_data_untouched():
    stored = copy.deepcopy(STORED)
    setup, taken = GAME.parse_event(stored[0]), GAME.parse_event(stored[1])
    assert setup.v == 2 and setup.options["counters"] == 12 and setup.lucky == {"ann": 0, "bob": 0, "cy": 0}
    assert taken.v == 2 and taken.scored is False and taken.count == 2
    assert stored == STORED


def test_a_current_event_is_read_as_it_was_written():
    event = GAME.parse_event({"type": "Taken", "v": 2, "player": "ann", "count": 1, "scored": True})
    assert event.scored is True and GAME.parse_event(event.model_dump()) == event


class Moved(Event):
    type: Literal["Moved"] = "Moved"
    v: int = 3
    to: str
    steps: int


def _rules() -> Rules:
    rules = Rules()
    rules.evolves(Moved)(lambda state, event: None)
    rules.upcasts("Moved", 1)(lambda data: {"type": "Moved", "to": data["where"]})
    rules.upcasts("Moved", 2)(lambda data: {**data, "steps": 1})
    return rules


def test_upcasters_chain_one_version_at_a_time():
    assert _rules().parse_event({"type": "Moved", "where": "h1"}) == Moved(to="h1", steps=1)      # no v: v1
    assert _rules().parse_event({"type": "Moved", "v": 2, "to": "h2"}) == Moved(to="h2", steps=1)


def test_a_version_without_an_upcaster_or_from_the_future_is_an_error():
    rules = _rules()
    del rules.upcasters[("Moved", 1)]
    with pytest.raises(ValueError, match="^a stored Moved is v1 and nothing upcasts it to v2$"):
        rules.parse_event({"type": "Moved", "v": 1, "where": "h1"})
    with pytest.raises(ValueError, match="^a stored Moved is v4, newer than this engine's v3$"):
        rules.parse_event({"type": "Moved", "v": 4, "to": "h1", "steps": 2})
