"""Commands and events of launch, the flight and Journey's End.

Pairs of values keyed by a square travel as lists ([[col, row], value]) so events stay plain JSON.
A decision a player owes is announced by DecisionRequested (who, what `kind`, a `key` naming it, the
allowed options) and answered by one of the commands below, recorded as DecisionTaken.
"""
from __future__ import annotations

from typing import Any, Literal

from starbase_rules.contract import Command, Event

Square = tuple[int, int]


# ----------------------------------------------------------------------------------------- commands
class ChooseAliens(Command):
    """Before launch: put an alien of `colour` in each named cabin instead of two humans."""
    type: Literal["ChooseAliens"] = "ChooseAliens"
    aliens: list[tuple[Square, Literal["purple", "brown"]]] = []


class PowerEngines(Command):
    """Spend one battery for each double engine powered, for this card. `batteries` names the battery
    component each token comes from (one entry per token); left out, the fullest batteries pay."""
    type: Literal["PowerEngines"] = "PowerEngines"
    count: int = 0
    batteries: list[Square] | None = None


class FireCannons(Command):
    """Spend one battery for each named double cannon fired, for this card."""
    type: Literal["FireCannons"] = "FireCannons"
    squares: list[Square] = []
    batteries: list[Square] | None = None     # as in PowerEngines


class ChoosePlanet(Command):
    type: Literal["ChoosePlanet"] = "ChoosePlanet"
    planet: int | None = None        # index on the card, or None to pass


class AnswerOffer(Command):
    """Accept or decline an abandoned ship/station or an enemy's reward."""
    type: Literal["AnswerOffer"] = "AnswerOffer"
    accept: bool


class Defend(Command):
    """Spend a battery on a shield (or a double cannon against a large meteor) for this hazard."""
    type: Literal["Defend"] = "Defend"
    use: bool
    batteries: list[Square] | None = None     # as in PowerEngines: the one battery that pays


class KeepPart(Command):
    """The ship broke apart: keep the part holding `square`; the rest is lost."""
    type: Literal["KeepPart"] = "KeepPart"
    square: Square


class ChooseCrewLoss(Command):
    """Which crew to give up: one entry per member, (cabin square, "human" | "purple" | "brown")."""
    type: Literal["ChooseCrewLoss"] = "ChooseCrewLoss"
    losses: list[tuple[Square, Literal["human", "purple", "brown"]]]


class ChooseGoodsLoss(Command):
    """Which goods to give up: one entry per good, (hold square, colour). The colours are set by the
    rules (the most valuable first); the owner picks the holds they come from."""
    type: Literal["ChooseGoodsLoss"] = "ChooseGoodsLoss"
    losses: list[tuple[Square, Literal["red", "yellow", "green", "blue"]]]


class ArrangeCargo(Command):
    """Where the goods go once some must be thrown away: (hold square, goods) for each hold used."""
    type: Literal["ArrangeCargo"] = "ArrangeCargo"
    cargo: list[tuple[Square, list[Literal["red", "yellow", "green", "blue"]]]]


class GiveUp(Command):
    """Give up the flight; it takes effect once the current card is resolved."""
    type: Literal["GiveUp"] = "GiveUp"


FLIGHT_COMMANDS = (ChooseAliens, PowerEngines, FireCannons, ChoosePlanet, AnswerOffer, Defend, KeepPart,
                   ChooseCrewLoss, ChooseGoodsLoss, ArrangeCargo, GiveUp)


# ------------------------------------------------------------------------------------------- events
class DecisionRequested(Event):
    type: Literal["DecisionRequested"] = "DecisionRequested"
    player: str
    kind: str      # aliens, engines, cannons, planet, offer, defend, keep_part, crew, goods_loss, cargo
    key: str
    options: dict[str, Any] = {}


class DecisionTaken(Event):
    type: Literal["DecisionTaken"] = "DecisionTaken"
    player: str
    key: str
    value: Any


class Progressed(Event):
    """A part of the current card (named by `marker`) is done; `value` keeps a figure it produced
    (an engine strength, a firepower, the weakest ship) for the rest of the card."""
    type: Literal["Progressed"] = "Progressed"
    marker: str
    value: Any = None


class InspectionClosed(Event):
    """Every ship is legal: launch preparation begins."""
    type: Literal["InspectionClosed"] = "InspectionClosed"


class DiceRolled(Event):
    type: Literal["DiceRolled"] = "DiceRolled"
    key: str
    dice: list[int]


class ShipLaunched(Event):
    type: Literal["ShipLaunched"] = "ShipLaunched"
    player: str
    position: int
    humans: list[tuple[Square, int]]
    aliens: list[tuple[Square, str]]
    batteries: list[tuple[Square, int]]


class FlightDeckShuffled(Event):
    """The piles go together into the flight deck. It has no order: each card is drawn when the flight
    needs it (`CardRevealed`, see `deck.py`)."""
    type: Literal["FlightDeckShuffled"] = "FlightDeckShuffled"


class CardRevealed(Event):
    type: Literal["CardRevealed"] = "CardRevealed"
    card: str
    flight_order: list[str]


class CardResolved(Event):
    type: Literal["CardResolved"] = "CardResolved"
    card: str


class BatteriesSpent(Event):
    type: Literal["BatteriesSpent"] = "BatteriesSpent"
    player: str
    squares: list[Square]          # one entry per token


class ShipMoved(Event):
    type: Literal["ShipMoved"] = "ShipMoved"
    player: str
    days: int                      # + forward, - back
    position: int


class CrewLost(Event):
    type: Literal["CrewLost"] = "CrewLost"
    player: str
    losses: list[tuple[Square, str]]      # "human", "purple" or "brown"


class CargoSet(Event):
    """The ship's whole cargo after loading, rearranging or losing goods."""
    type: Literal["CargoSet"] = "CargoSet"
    player: str
    cargo: list[tuple[Square, list[str]]]


class CreditsPaid(Event):
    """The bank pays `amount` to `player` (negative: the player pays the bank)."""
    type: Literal["CreditsPaid"] = "CreditsPaid"
    player: str
    amount: int
    reason: str


class HazardMet(Event):
    type: Literal["HazardMet"] = "HazardMet"
    player: str
    hazard: str                    # small_meteor, large_meteor, light_fire, heavy_fire, sabotage
    direction: str                 # front, right, rear, left
    line: int
    square: Square | None
    result: Literal["missed", "bounced", "shielded", "shot_down", "destroyed"]


class ComponentDestroyed(Event):
    """The component goes to the owner's lost pile with everything on it; aliens that lose their
    life support leave the ship."""
    type: Literal["ComponentDestroyed"] = "ComponentDestroyed"
    player: str
    square: Square
    component: str


class PartKept(Event):
    type: Literal["PartKept"] = "PartKept"
    player: str
    lost: list[Square]


class GiveUpAnnounced(Event):
    type: Literal["GiveUpAnnounced"] = "GiveUpAnnounced"
    player: str


class ShipGaveUp(Event):
    type: Literal["ShipGaveUp"] = "ShipGaveUp"
    player: str
    reason: Literal["chose_to", "no_humans", "no_engines", "lapped"]


class JourneyEnded(Event):
    type: Literal["JourneyEnded"] = "JourneyEnded"
    round: int


class CreditsTallied(Event):
    """After round 3: the final credits; the game is over (the platform then writes its GameEnded)."""
    type: Literal["CreditsTallied"] = "CreditsTallied"
    credits: dict[str, int]

