"""The whole game's state: plain dataclasses (so two states compare with `==`), built only by `evolve`."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from starbase_rules.copying import copy_state

from trucker_rules.ship import Ship

# Phases of a round, in order.
SETUP, BUILDING, REPAIR, LAUNCH, FLIGHT, OVER = "setup", "building", "repair", "launch", "flight", "over"


@dataclass
class Player:
    name: str
    cabin: str                                  # starting cabin id (its colour)
    ship: Ship | None = None
    hand: str | None = None                     # at most one component in hand
    from_reserve: bool = False                  # the hand (or the newest) came from the reserve
    order_tile: int | None = None
    looking_at: int | None = None               # the adventure pile held, if any
    credits: int = 0
    # flight
    position: int | None = None                 # flight-board space counted from the start, laps included
    gave_up: bool = False
    giving_up: bool = False                     # announced; takes effect when the current card is resolved
    flaws: list[str] = field(default_factory=list)   # inspection flaw codes still to repair


@dataclass
class TruckerState:
    players: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    seats: dict[str, Player] = field(default_factory=dict)
    round: int = 0
    phase: str = SETUP
    # building
    face_down: list[str] = field(default_factory=list)   # sorted; a grab draws which one (no order exists in advance)
    face_up: list[str] = field(default_factory=list)
    # The adventure piles 1..4: a pile's cards once someone looked at it ([] until then: not drawn yet).
    piles: list[list[str]] = field(default_factory=list)
    building_started: bool = False
    timer_space: int = 0
    runs_out_at: float | None = None
    order_tiles_free: list[int] = field(default_factory=list)
    # flight (see flight.py)
    used_cards: list[str] = field(default_factory=list)
    round_cards: list[str] = field(default_factory=list)   # the cards of this round seen so far
    deck: list[str] = field(default_factory=list)          # seen cards still to come (sorted: no order yet)
    deck_unseen: dict[str, int] = field(default_factory=dict)   # unseen cards still to come, per level
    card: str | None = None
    step: dict[str, Any] = field(default_factory=dict)     # progress through the current card
    bank: int = 0                                          # bank + all credits == 0 always
    finished_rounds: int = 0

    def player(self, name: str) -> Player:
        return self.seats[name]

    def clone(self) -> "TruckerState":
        """A copy sharing nothing mutable (the engine base's `copy_state`)."""
        return copy_state(self)
