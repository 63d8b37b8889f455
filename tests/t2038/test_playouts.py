"""Random bot games to the end, checking the invariants after every event and the replay at the end."""
import pytest

from starbase_rules.playout import playout
from t2038.game import GAME

PLAYERS = ["ann", "bob", "cy", "dee", "eve", "fay"]


@pytest.mark.parametrize("variant", ["full", "short"])
@pytest.mark.parametrize("count", [3, 4, 5, 6])
def test_bots_play_a_whole_game(count, variant):
    result = playout(GAME, PLAYERS[:count], seed=count * 10 + len(variant), options={"variant": variant})
    assert result.outcome is not None
    assert {s.player for s in result.outcome.standings} == set(PLAYERS[:count])
    assert result.state.set_number >= 2


def test_the_same_seed_replays_the_same_game():
    first = playout(GAME, PLAYERS[:4], seed=3, options={"variant": "short"})
    second = playout(GAME, PLAYERS[:4], seed=3, options={"variant": "short"})
    assert [e.model_dump() for e in first.events] == [e.model_dump() for e in second.events]
