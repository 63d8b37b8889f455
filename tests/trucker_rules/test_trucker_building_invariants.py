"""Bots race through the building phase; after every event: a tile in exactly one place (face-down,
face-up, a hand, a ship, a reserve, lost), at most one tile in hand, each order tile taken once; and the
events refold to the same state."""
import random

import pytest

from starbase_rules import FairRng, fold
from trucker_rules.game import GAME
from trucker_rules.state import BUILDING, REPAIR


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_build_with_every_invariant_holding(players):
    names = [f"p{i}" for i in range(players)]
    rng, rnd = FairRng(f"build-{players}".encode()), random.Random(players)
    events = GAME.setup(names, {"reserve_in_round_1": True}, rng)
    state = fold(GAME, events)
    while state.phase in (BUILDING, REPAIR) and GAME.to_act(state):
        actor = rnd.choice(GAME.to_act(state))
        new = GAME.decide(state, GAME.bot_command(state, actor, rnd), actor, rng)
        for event in new:
            state = GAME.evolve(state, event)
            assert GAME.invariants(state) == [], event
        events += new
    assert sorted(p.order_tile for p in state.seats.values()) == list(range(1, players + 1))
    assert all(not p.flaws for p in state.seats.values())
    assert fold(GAME, [GAME.parse_event(e.model_dump()) for e in events]) == state


def test_a_cloned_state_is_equal_and_independent():
    from starbase_rules.playout import playout
    state = playout(GAME, ["a", "b"], 7).state
    twin = state.clone()
    assert twin == state
    twin.seats["a"].ship.lost.append("x")
    twin.step["probe"] = 1
    assert twin != state and "probe" not in state.step and "x" not in state.seats["a"].ship.lost
