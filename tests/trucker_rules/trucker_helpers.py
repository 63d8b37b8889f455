"""Small builders for Trucker tests: ships from a dict of squares, games driven command by command."""
from __future__ import annotations

import pytest

from starbase_rules import FairRng, RuleViolation, fold
from trucker_rules.game import GAME
from trucker_rules.ship import Placed, Ship

# A starting cabin has universal connectors on all four sides: handy as an "anything joins" block.
BLOCK = "start-green"


def ship_of(tiles: dict, board: str = "I", cabin: str = "start-blue") -> Ship:
    ship = Ship.new(board, cabin)
    for square, (component, rotation) in tiles.items():
        ship.tiles[square] = Placed(component, rotation)
    return ship


class Table:
    """A game under test: `do` decides and applies a command; `refused` expects a refusal code."""

    def __init__(self, players=("ann", "bob"), options=None, seed=b"test-seed"):
        self.rng = FairRng(seed)
        self.events = GAME.setup(list(players), options or {}, self.rng)
        self.state = fold(GAME, self.events)

    def do(self, actor, command):
        new = GAME.decide(self.state, command, actor, self.rng)
        self.state = fold(GAME, new, self.state)
        self.events += new
        broken = GAME.invariants(self.state)
        assert not broken, broken
        return new

    def refused(self, actor, command, code):
        before = repr(self.state)
        with pytest.raises(RuleViolation) as info:
            GAME.decide(self.state, command, actor, self.rng)
        assert info.value.code == code, info.value
        assert repr(self.state) == before     # a refused command changes nothing
        return info.value

    def seat(self, name):
        return self.state.seats[name]


class ScriptedRng:
    """A test rng with chosen dice: each randbelow(6) gives the next die (minus one); shuffles keep
    the order. The engine only ever asks its `rng` argument, so this fixes every roll of a test."""

    def __init__(self, dice=()):
        self.dice, self.used = list(dice), 0

    def randbelow(self, n):
        self.used += 1
        if n == 6:
            return self.dice.pop(0) - 1
        return 0

    def shuffle(self, items):
        return list(items)


def crewed(ship, humans=None, batteries=None, goods=None, aliens=None):
    """Fill a test ship as launch would: 2 humans per cabin, full batteries (unless given)."""
    ship.humans = humans if humans is not None else {sq: 2 for sq, p in ship.tiles.items() if p.tile.is_cabin}
    ship.batteries = batteries if batteries is not None else \
        {sq: p.tile.capacity for sq, p in ship.tiles.items() if p.tile.kind == "battery"}
    ship.goods = goods or {}
    ship.aliens = aliens or {}
    return ship


class FlightTable:
    """Ships in flight facing one adventure card: given ships and positions, when the card is revealed
    and players answer, then the events."""

    def __init__(self, ships: dict, positions: dict, card: str, dice=(), options=None, round_no=1, gave_up=()):
        from trucker_rules.game import automatic_events
        from trucker_rules.state import FLIGHT
        self.rng = ScriptedRng(dice)
        names = list(ships)
        state = fold(GAME, GAME.setup(names, options or {}, FairRng(b"flight")))
        for tile, name in enumerate(names, start=1):
            seat = state.seats[name]
            seat.ship, seat.position, seat.order_tile = ships[name], positions[name], tile
            seat.gave_up = name in gave_up
        state.order_tiles_free, state.phase, state.round = [], FLIGHT, round_no
        state.deck, state.card, state.step = [card], None, {}
        self.events = automatic_events(state, self.rng)
        self.state = fold(GAME, self.events, state)

    def do(self, actor, command):
        new = GAME.decide(self.state, command, actor, self.rng)
        self.state = fold(GAME, new, self.state)
        self.events += new
        return new

    def refused(self, actor, command, code):
        with pytest.raises(RuleViolation) as info:
            GAME.decide(self.state, command, actor, self.rng)
        assert info.value.code == code, info.value

    def card_events(self):
        """The events up to the end of the card under test."""
        for i, event in enumerate(self.events):
            if event.type == "CardResolved":
                return self.events[:i + 1]
        return list(self.events)

    def of(self, type_name, **where):
        return [e for e in self.card_events() if e.type == type_name
                and all(getattr(e, k) == v for k, v in where.items())]

    @property
    def ask(self):
        return self.state.step.get("ask") if self.state.step else None
