"""Streams stored before the port onto the engine base still fold to the same game.

`data/v1_short_3p_stream.json` was written by the engine as it was before the port (a Short game with
the Cutthroat rule, 3 bot players, to the end): its `GameStarted` is v1 (only the options the table set,
the Short game as `short`). Folded today, through `parse_event` and its upcaster, it must give the same
view and outcome the old engine gave.
"""
import json
from pathlib import Path

from starbase_rules.contract import fold
from t2038.game import GAME

STREAM = json.loads((Path(__file__).parent / "data" / "v1_short_3p_stream.json").read_text())


def test_a_v1_stream_folds_to_the_view_and_outcome_the_old_engine_gave():
    events = [GAME.parse_event(data) for data in STREAM["events"]]
    assert STREAM["events"][0]["v"] == 1 and events[0].v == 2
    assert events[0].options["variant"] == "short" and events[0].options["cutthroat"] is True
    state = fold(GAME, events)
    assert GAME.invariants(state) == []
    assert json.loads(json.dumps(GAME.view(state, None), default=str)) == STREAM["final_view"]
    assert GAME.outcome(state).model_dump(mode="json") == STREAM["outcome"]


def test_the_upcast_leaves_the_stored_data_unchanged():
    stored = STREAM["events"][0]
    before = json.dumps(stored, sort_keys=True)
    GAME.parse_event(stored)
    assert json.dumps(stored, sort_keys=True) == before
