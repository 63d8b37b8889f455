"""Events: facts in the past tense. Every chance result is recorded here (tiles dealt, powers drawn).

Face-down facts are declared in `secret_fields` (hidden from everybody until another event reveals
them); the base's `redact` blanks them: a dict keeps its keys, a list becomes its length.
"""
from __future__ import annotations

from typing import ClassVar, Literal

from starbase_rules.contract import Event
from starbase_rules.redaction import HIDDEN


class GameSetUp(Event):
    secret_fields: ClassVar[dict[str, str]] = {"alien_tiles": HIDDEN, "boxed_tiles": HIDDEN,
                                               "shipyard_tiles": HIDDEN, "powers_pile": HIDDEN}
    type: Literal["GameSetUp"] = "GameSetUp"
    players: list[str]
    options: dict
    liquid_funds: int
    alien_mc: int
    alien_tiles: dict[str, int]          # secret: planet hex -> chevrons
    boxed_tiles: list[int]               # secret
    shipyard_tiles: dict[int, int]       # secret: level -> chevrons
    powers_row: list[str]
    powers_pile: list[str]               # secret until revealed
    first_bidder: str
    auction_order: list[str]             # the initial auction's lots, first to last


class AuctionOpened(Event):
    type: Literal["AuctionOpened"] = "AuctionOpened"
    corp: str
    purpose: str
    order: list[str]


class BidPlaced(Event):
    type: Literal["BidPlaced"] = "BidPlaced"
    player: str
    amount: int


class BidPassed(Event):
    type: Literal["BidPassed"] = "BidPassed"
    player: str


class AuctionLapsed(Event):
    """Everyone passed an Issue Share auction (option auction_opener_may_pass): no share is issued."""
    type: Literal["AuctionLapsed"] = "AuctionLapsed"
    corp: str


class ShareSold(Event):
    type: Literal["ShareSold"] = "ShareSold"
    corp: str
    player: str
    price: int
    purpose: str
    president: str                       # after the sale: presidency moves only to strictly more shares


class PowerGained(Event):
    type: Literal["PowerGained"] = "PowerGained"
    corp: str
    power: str
    from_row: bool = True


class PowerDiscarded(Event):
    type: Literal["PowerDiscarded"] = "PowerDiscarded"
    corp: str
    power: str


class PowersRevealed(Event):
    type: Literal["PowersRevealed"] = "PowersRevealed"
    powers: list[str]


class DecisionRequested(Event):
    type: Literal["DecisionRequested"] = "DecisionRequested"
    kind: str
    player: str
    corp: str | None = None
    hex: str | None = None
    options: list[str] = []


class DecisionMade(Event):
    """Closes the oldest pending decision (its consequences follow as their own events)."""
    type: Literal["DecisionMade"] = "DecisionMade"
    kind: str
    player: str
    choice: str | None = None


class CashMoved(Event):
    type: Literal["CashMoved"] = "CashMoved"
    source: str
    destination: str
    amount: int
    reason: str


class DirectorChanged(Event):
    type: Literal["DirectorChanged"] = "DirectorChanged"
    player: str


class RoundBegan(Event):
    type: Literal["RoundBegan"] = "RoundBegan"
    era: int
    round: str


class CorporationTurnBegan(Event):
    type: Literal["CorporationTurnBegan"] = "CorporationTurnBegan"
    corp: str
    index: int


class CorporationStepBegan(Event):
    type: Literal["CorporationStepBegan"] = "CorporationStepBegan"
    corp: str
    step: str
    forced_ship: bool = False


class CorporationTurnEnded(Event):
    type: Literal["CorporationTurnEnded"] = "CorporationTurnEnded"
    corp: str


class BuildBegan(Event):
    type: Literal["BuildBegan"] = "BuildBegan"
    corp: str
    mode: str
    builder: str
    payer: str
    wormhole_cost: int = 0


class OutpostPlaced(Event):
    type: Literal["OutpostPlaced"] = "OutpostPlaced"
    corp: str
    hex: str
    penalty: int = 0
    free: bool = False                   # not part of a paid build (Amethyst home, setup)


class OutpostRemoved(Event):
    type: Literal["OutpostRemoved"] = "OutpostRemoved"
    corp: str
    hex: str | None                      # None: from the supply
    to: str                              # supply | box | loans


class NebulaConverted(Event):
    secret_fields: ClassVar[dict[str, str]] = {"tile_index": HIDDEN, "chevrons": HIDDEN}
    type: Literal["NebulaConverted"] = "NebulaConverted"
    hex: str
    tile_index: int                      # which boxed tile was drawn (seeded chance)
    chevrons: int                        # secret until the tile is revealed


class BuildFinished(Event):
    type: Literal["BuildFinished"] = "BuildFinished"
    corp: str
    cost: int


class TechnologyGained(Event):
    type: Literal["TechnologyGained"] = "TechnologyGained"
    player: str
    count: int
    reason: str


class TechnologySpent(Event):
    """Cubes leave a player for the charter (cargo_boost, wormhole), planets (develop) or the supply (launder)."""
    type: Literal["TechnologySpent"] = "TechnologySpent"
    player: str
    count: int
    use: str                             # cargo_boost | wormhole | develop | launder
    corp: str | None = None
    hexes: list[str] = []


class AgreementSigned(Event):
    type: Literal["AgreementSigned"] = "AgreementSigned"
    corp: str
    hex: str
    chevrons: int
    alien_planets: int


class AlienTileDiscarded(Event):
    type: Literal["AlienTileDiscarded"] = "AlienTileDiscarded"
    hex: str
    chevrons: int | None                 # None: discarded unseen (Secret Agents' Amethyst choice)


class AlienCapacityRaised(Event):
    type: Literal["AlienCapacityRaised"] = "AlienCapacityRaised"
    amount: int
    reason: str


class AgentsBonusGained(Event):
    type: Literal["AgentsBonusGained"] = "AgentsBonusGained"
    corp: str
    amount: int


class DividendPaid(Event):
    type: Literal["DividendPaid"] = "DividendPaid"
    corp: str
    row: int
    per_share: int


class ShipOrdered(Event):
    type: Literal["ShipOrdered"] = "ShipOrdered"
    corp: str
    level: int


class ShipyardTileRevealed(Event):
    type: Literal["ShipyardTileRevealed"] = "ShipyardTileRevealed"
    level: int
    chevrons: int


class SectionOpened(Event):
    type: Literal["SectionOpened"] = "SectionOpened"
    level: int


class ShipsScrapped(Event):
    """Every ship of `level` leaves the game; `saved` ships go to Spare Parts tiles instead."""
    type: Literal["ShipsScrapped"] = "ShipsScrapped"
    level: int
    saved: list[str] = []


class ShipyardShipScrapped(Event):
    type: Literal["ShipyardShipScrapped"] = "ShipyardShipScrapped"
    level: int


class SpareShipScrapped(Event):
    type: Literal["SpareShipScrapped"] = "SpareShipScrapped"
    corp: str


class LoanTaken(Event):
    type: Literal["LoanTaken"] = "LoanTaken"
    corp: str
    hex: str | None                      # the outpost's origin; None = supply


class ShipsDelivered(Event):
    type: Literal["ShipsDelivered"] = "ShipsDelivered"
    corp: str


class CargoChanged(Event):
    type: Literal["CargoChanged"] = "CargoChanged"
    corp: str
    amount: int                          # signed; the result is kept within 0..13
    reason: str


class DividendsReleased(Event):
    type: Literal["DividendsReleased"] = "DividendsReleased"


class InvestorStepBegan(Event):
    type: Literal["InvestorStepBegan"] = "InvestorStepBegan"
    step: str
    seat: int = 0
    part: str = "investor"


class VotesPlaced(Event):
    type: Literal["VotesPlaced"] = "VotesPlaced"
    player: str
    corp: str
    count: int


class VotesSettled(Event):
    type: Literal["VotesSettled"] = "VotesSettled"
    winner: str | None


class BattleCorpChosen(Event):
    type: Literal["BattleCorpChosen"] = "BattleCorpChosen"
    corp: str


class Shielded(Event):
    type: Literal["Shielded"] = "Shielded"
    corp: str


class DiscMoved(Event):
    type: Literal["DiscMoved"] = "DiscMoved"
    player: str
    disc: str                            # investor | alien
    action: str | None                   # None: passed, disc off the board


class ShipInsured(Event):
    type: Literal["ShipInsured"] = "ShipInsured"
    corp: str
    level: int


class VoteSold(Event):
    type: Literal["VoteSold"] = "VoteSold"
    player: str


class CubesReclaimed(Event):
    type: Literal["CubesReclaimed"] = "CubesReclaimed"
    corp: str
    player: str
    boost: int
    wormhole: bool


class OutpostsBoxed(Event):
    type: Literal["OutpostsBoxed"] = "OutpostsBoxed"
    corp: str
    count: int


class PowerUsed(Event):
    """Marks a once-per-round power as used (Alien Alchemist, Dismantling Outposts)."""
    type: Literal["PowerUsed"] = "PowerUsed"
    corp: str
    power: str


class TurnOrderSet(Event):
    type: Literal["TurnOrderSet"] = "TurnOrderSet"
    order: list[str]


class CorporationFormed(Event):
    type: Literal["CorporationFormed"] = "CorporationFormed"
    corp: str


class AlienCapacityShifted(Event):
    type: Literal["AlienCapacityShifted"] = "AlienCapacityShifted"
    corp: str
    amount: int


class HostileTakeover(Event):
    type: Literal["HostileTakeover"] = "HostileTakeover"
    corp: str


class LiquidationCompleted(Event):
    type: Literal["LiquidationCompleted"] = "LiquidationCompleted"
    share_values: dict[str, int]
    scores: dict[str, int]
    reason: str
