"""Given / when / then helpers for 2038 rule tests: states are built from events, never poked."""
from __future__ import annotations

import pytest

from starbase_rules.contract import RuleViolation
from starbase_rules.copying import copy_state
from t2038 import events as ev
from t2038 import tiles
from t2038.game import GAME
from t2038.state import State


class Rigged:
    """A chance source that draws the tiles a test names, in order, from the state's pool."""

    def __init__(self, state: State, wanted: list[int]):
        self.pool, self.wanted, self.given, self.used = list(state.pool), list(wanted), [], 0

    def randbelow(self, n: int) -> int:
        self.used += 1
        if not self.wanted:                  # a draw the test does not care about: the first candidate
            return 0
        tile = self.wanted.pop(0)
        candidates = [t for t in self.pool if t not in self.given]
        if len(candidates) != n:
            candidates = [t for t in self.pool if t not in self.given[-1:]]
        self.given.append(tile)
        return candidates.index(tile)

    def shuffle(self, items: list) -> list:
        return list(items)


def tile_of(kind: str, state: State | None = None) -> int:
    """The first tile id of a kind (still in the pool, when a state is given)."""
    for tile_id, tile_kind in enumerate(tiles.tile_kinds()):
        if tile_kind == kind and (state is None or tile_id in state.pool):
            return tile_id
    raise LookupError(kind)


def game(players=("ann", "bob", "cy", "dee"), short: bool = False, **options) -> State:
    """A game just set up, seated in the given order; `options` are table options (checked, completed)."""
    recorded = GAME.info.check_options({"variant": "short" if short else "full", **options})
    money = 4000 if short else 10000
    return given(State(), ev.GameStarted(players=list(players), options=recorded,
                                         cash_each=1800 // len(players), money_total=money))


def given(state: State, *events) -> State:
    """The state after `events`; a fixture that breaks an invariant is a broken test."""
    state = copy_state(state)
    for event in events:
        state = GAME.evolve(state, event)
    assert GAME.invariants(state) == [], GAME.invariants(state)
    return state


def when(state: State, actor: str, command, rng=None) -> tuple[State, list]:
    """Decide and apply; checks the invariants after every event."""
    produced = GAME.decide(state, command, actor, rng or Rigged(state, []))
    after = copy_state(state)
    for event in produced:
        after = GAME.evolve(after, event)
        assert GAME.invariants(after) == [], (event, GAME.invariants(after))
    return after, produced


def refused(state: State, actor: str, command, code: str, rng=None) -> None:
    before = copy_state(state)
    with pytest.raises(RuleViolation) as caught:
        GAME.decide(state, command, actor, rng or Rigged(state, []))
    assert caught.value.code == code, caught.value
    assert state == before


def of_type(events: list, kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


def price(state: State, corp: str) -> int:
    """A corporation's current stock price."""
    from t2038 import market
    return market.price(state.market, corp)
