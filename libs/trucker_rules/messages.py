"""Commands and events of the building phase (plus game and round setup).

Squares are [column, row] with the numbers printed on the ship board. Commands that depend on the
clock carry the time `at` (seconds, any epoch the caller likes, but one epoch per game): the engine
never reads a clock.
"""
from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from starbase_rules.contract import Command, Event
from starbase_rules.redaction import seen_by

Square = tuple[int, int]


# ----------------------------------------------------------------------------------------- commands
class StartBuilding(Command):
    """Start the round's building and the hourglass (sent by the table, or any player)."""
    type: Literal["StartBuilding"] = "StartBuilding"
    at: float


class GrabFaceDown(Command):
    type: Literal["GrabFaceDown"] = "GrabFaceDown"


class GrabFaceUp(Command):
    type: Literal["GrabFaceUp"] = "GrabFaceUp"
    component: str


class TakeReserved(Command):
    """Take a set-aside component from the reserve back into the hand."""
    type: Literal["TakeReserved"] = "TakeReserved"
    component: str


class PlaceComponent(Command):
    type: Literal["PlaceComponent"] = "PlaceComponent"
    square: Square
    rotation: int = Field(0, ge=0, le=3)


class MoveNewest(Command):
    """Move and/or turn the newest placed component (allowed until the next grab)."""
    type: Literal["MoveNewest"] = "MoveNewest"
    square: Square
    rotation: int = Field(0, ge=0, le=3)


class ReturnComponent(Command):
    """Put the component in hand, or else the newest placed one, face up in the warehouse."""
    type: Literal["ReturnComponent"] = "ReturnComponent"


class ReserveComponent(Command):
    """Set the component in hand aside in a reserve spot."""
    type: Literal["ReserveComponent"] = "ReserveComponent"


class LookAtPile(Command):
    type: Literal["LookAtPile"] = "LookAtPile"
    pile: int = Field(ge=1, le=4)


class PutBackPile(Command):
    type: Literal["PutBackPile"] = "PutBackPile"


class TurnTimer(Command):
    """Move the run-out hourglass one space toward START and turn it over."""
    type: Literal["TurnTimer"] = "TurnTimer"
    at: float


class CallTimeUp(Command):
    """Stop building because the sand has run out on START."""
    type: Literal["CallTimeUp"] = "CallTimeUp"
    at: float


class Finish(Command):
    """Declare the ship finished and take an order tile (the lowest free one if none is named)."""
    type: Literal["Finish"] = "Finish"
    order_tile: int | None = None


class RepairShip(Command):
    """After a failed inspection: remove these components and keep the part holding `keep`."""
    type: Literal["RepairShip"] = "RepairShip"
    remove: list[Square] = []
    keep: Square | None = None


# The real-time service's schemas list them (the engine's registry is `rules.RULES`).
BUILDING_COMMANDS = (StartBuilding, GrabFaceDown, GrabFaceUp, TakeReserved, PlaceComponent, MoveNewest,
                     ReturnComponent, ReserveComponent, LookAtPile, PutBackPile, TurnTimer, CallTimeUp,
                     Finish, RepairShip)


# ------------------------------------------------------------------------------------------- events
class GameStarted(Event):
    type: Literal["GameStarted"] = "GameStarted"
    players: list[str]
    colors: dict[str, str]         # player -> starting cabin id
    options: dict


class RoundStarted(Event):
    type: Literal["RoundStarted"] = "RoundStarted"
    round: int
    ship_class: str
    order_tiles: list[int]


class FlightDeckDealt(Event):
    """The round's adventure piles are laid out (piles 1-3 may be looked at while building). No card is
    named: a pile's cards are drawn when it is first looked at (`PileTaken.cards`), see `deck.py`."""
    type: Literal["FlightDeckDealt"] = "FlightDeckDealt"
    round: int
    piles: int              # how many piles


class BuildingStarted(Event):
    type: Literal["BuildingStarted"] = "BuildingStarted"
    at: float
    timer_space: int
    runs_out_at: float


class ComponentGrabbed(Event):
    type: Literal["ComponentGrabbed"] = "ComponentGrabbed"
    player: str
    component: str
    source: Literal["face_down", "face_up", "reserve"]


class ComponentPlaced(Event):
    type: Literal["ComponentPlaced"] = "ComponentPlaced"
    player: str
    component: str
    square: Square
    rotation: int


class NewestMoved(Event):
    type: Literal["NewestMoved"] = "NewestMoved"
    player: str
    component: str
    square: Square
    rotation: int


class ComponentReturned(Event):
    """A component went face up into the warehouse, from the hand or from the ship (the newest)."""
    type: Literal["ComponentReturned"] = "ComponentReturned"
    player: str
    component: str
    source: Literal["hand", "ship"]


class ComponentReserved(Event):
    type: Literal["ComponentReserved"] = "ComponentReserved"
    player: str
    component: str


class PileTaken(Event):
    """`cards`: drawn at the pile's first look this round (None after that): PRIVATE to `player`
    (others see how many)."""
    secret_fields: ClassVar[dict[str, str]] = {"cards": seen_by("player")}
    type: Literal["PileTaken"] = "PileTaken"
    player: str
    pile: int
    cards: list[str] | None = None


class PileReturned(Event):
    type: Literal["PileReturned"] = "PileReturned"
    player: str
    pile: int


class TimerTurned(Event):
    type: Literal["TimerTurned"] = "TimerTurned"
    player: str | None
    at: float
    timer_space: int
    runs_out_at: float


class ShipFinished(Event):
    type: Literal["ShipFinished"] = "ShipFinished"
    player: str
    order_tile: int


class BuildingEnded(Event):
    type: Literal["BuildingEnded"] = "BuildingEnded"
    reason: Literal["all_finished", "time_up"]


class ReserveLost(Event):
    """Components still set aside when building ends are lost components."""
    type: Literal["ReserveLost"] = "ReserveLost"
    player: str
    components: list[str]


class FlawNote(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    code: str
    square: Square


class ShipInspected(Event):
    type: Literal["ShipInspected"] = "ShipInspected"
    player: str
    flaws: list[FlawNote]
    exposed_connectors: int


class ShipRepaired(Event):
    type: Literal["ShipRepaired"] = "ShipRepaired"
    player: str
    removed: list[Square]          # every square lost, the chosen removals and the parts not kept

