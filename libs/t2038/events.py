"""Events of 2038: facts in the past tense. Every chance result (tiles drawn, seating) is recorded."""
from __future__ import annotations

from typing import Literal

from starbase_rules.contract import Event


class GameStarted(Event):
    type: Literal["GameStarted"] = "GameStarted"
    v: int = 2                    # v1 recorded only the options the table set, the Short game as `short`
    players: list[str]            # seating order drawn with the game's chance; first is First Player
    options: dict                 # every table option (`options.TableOptions`), defaults filled in
    cash_each: int
    money_total: int


class CashMoved(Event):
    type: Literal["CashMoved"] = "CashMoved"
    source: str
    destination: str
    amount: int
    why: str = ""


class BidPlaced(Event):
    type: Literal["BidPlaced"] = "BidPlaced"
    player: str
    company: int
    amount: int


class AuctionOpened(Event):
    type: Literal["AuctionOpened"] = "AuctionOpened"
    company: int
    bidders: list[str]            # in the order they act
    high: int
    leader: str


class AuctionBidRaised(Event):
    type: Literal["AuctionBidRaised"] = "AuctionBidRaised"
    player: str
    amount: int


class AuctionDropped(Event):
    type: Literal["AuctionDropped"] = "AuctionDropped"
    player: str


class CompanyAcquired(Event):
    type: Literal["CompanyAcquired"] = "CompanyAcquired"
    company: int
    owner: str                    # holder, or "closed"
    price: int = 0


class SharesMoved(Event):
    type: Literal["SharesMoved"] = "SharesMoved"
    corp: str
    source: str                   # "ipo", "market", "p:ann", "none" (created)
    destination: str
    units: int


class PresidentChanged(Event):
    type: Literal["PresidentChanged"] = "PresidentChanged"
    corp: str
    player: str


class StockPriceMoved(Event):
    type: Literal["StockPriceMoved"] = "StockPriceMoved"
    corp: str
    row: int
    column: int
    why: str = ""


class CorporationLaunched(Event):
    type: Literal["CorporationLaunched"] = "CorporationLaunched"
    corp: str
    player: str
    par: int
    kind: str = "public"          # "public", "growth" or "league"


class CorporationActivated(Event):
    type: Literal["CorporationActivated"] = "CorporationActivated"
    corp: str


class StockTurnEnded(Event):
    type: Literal["StockTurnEnded"] = "StockTurnEnded"
    player: str
    passed: bool
    next_player: str
    purchase: bool = True         # a buy or sale of the player's own (not a bid): moves the First Player card


class RoundStarted(Event):
    type: Literal["RoundStarted"] = "RoundStarted"
    kind: str                     # "stock" or "operating"
    set_number: int
    or_number: int = 0
    first_player: str = ""


class OperatorStarted(Event):
    type: Literal["OperatorStarted"] = "OperatorStarted"
    operator: str
    price: int = 0                # a corporation's stock price as it begins (8.14)


class OperatorFinished(Event):
    type: Literal["OperatorFinished"] = "OperatorFinished"
    operator: str


class RouteStarted(Event):
    type: Literal["RouteStarted"] = "RouteStarted"
    ship: str
    hex: str
    movement: int
    holds: int
    pilot: str = ""               # "i:2": whose bonuses and draw rules apply on this route
    pilot_is_owner: bool = True   # an Independent flying its own ship (no pilot assignment used)


class ShipMoved(Event):
    type: Literal["ShipMoved"] = "ShipMoved"
    hex: str
    cost: int
    refuel: int = 0               # movement points regained at a refuelling station


class HexExplored(Event):
    type: Literal["HexExplored"] = "HexExplored"
    hex: str
    tile: int                     # the tile placed (drawn with the game's chance)
    rejected: list[int] = []      # tiles drawn and returned to the pool (redraws, Lucky's other)


class TilesOffered(Event):
    type: Literal["TilesOffered"] = "TilesOffered"
    hex: str
    tiles: list[int]              # Lucky's two draws, awaiting its choice


class OrePickedUp(Event):
    type: Literal["OrePickedUp"] = "OrePickedUp"
    hex: str
    mine: int
    ore: str
    value: int


class RouteEnded(Event):
    type: Literal["RouteEnded"] = "RouteEnded"
    ship: str
    value: int
    delivered: bool


class EarningsDeclared(Event):
    type: Literal["EarningsDeclared"] = "EarningsDeclared"
    operator: str
    choice: str                   # "retain", "split", "half", "full"
    earnings: int
    retained: int
    per_share: int


class ShipBought(Event):
    type: Literal["ShipBought"] = "ShipBought"
    ship: str
    buyer: str
    kind: str
    price: int
    seller: str = "bank"


class ShipRemoved(Event):
    type: Literal["ShipRemoved"] = "ShipRemoved"
    ship: str
    to: str                       # "gone" (obsolete/upgraded) or "bank" (discarded over the limit)


class PhaseChanged(Event):
    type: Literal["PhaseChanged"] = "PhaseChanged"
    phase: int


class DiscardRequired(Event):
    type: Literal["DiscardRequired"] = "DiscardRequired"
    holders: list[str]


class ClaimPlaced(Event):
    type: Literal["ClaimPlaced"] = "ClaimPlaced"
    holder: str
    hex: str
    mine: int
    price: int
    replaced: str = ""            # an Independent whose claim was bought
    private: int = 0              # placed free through private 9's black-edged marker


class BasePlaced(Event):
    type: Literal["BasePlaced"] = "BasePlaced"
    corp: str
    hex: str
    price: int
    private: int = 0              # placed free through private 7's black-edged marker


class StationPlaced(Event):
    type: Literal["StationPlaced"] = "StationPlaced"
    corp: str
    hex: str
    price: int
    private: int = 0              # placed free through private 8's black-edged marker


class BankBroke(Event):
    type: Literal["BankBroke"] = "BankBroke"


class GameFinished(Event):
    type: Literal["GameFinished"] = "GameFinished"
    reason: str
    bankrupt: str = ""


class BaseTransferred(Event):
    """An Independent's base taken over by a Growth corporation or the League (marker replaced)."""
    type: Literal["BaseTransferred"] = "BaseTransferred"
    hex: str
    owner: str
    uses_counter: bool = False


class DecisionsQueued(Event):
    """League choices owed before play goes on: ["form", player, 11, ""] or ["merge", player, n, when]."""
    type: Literal["DecisionsQueued"] = "DecisionsQueued"
    decisions: list[list]
    then: str = ""


class DecisionResolved(Event):
    type: Literal["DecisionResolved"] = "DecisionResolved"


class ShipOfferDeclined(Event):
    """A seller declined to sell `ship` to the operating `buyer` for `price`; `whole_treasury` when that was
    all the buyer could pay, so no offer with its own funds can buy that ship this turn (7.3)."""
    type: Literal["ShipOfferDeclined"] = "ShipOfferDeclined"
    ship: str
    buyer: str
    price: int
    whole_treasury: bool = False


class LeagueSkipsRound(Event):
    """The League formed after a corporation priced $124 or less began operating (8.14)."""
    type: Literal["LeagueSkipsRound"] = "LeagueSkipsRound"


class AuctionFlowSet(Event):
    """Who plays after pending bids resolve (left of `resume_after`), or all-pass resolution (5.13)."""
    type: Literal["AuctionFlowSet"] = "AuctionFlowSet"
    resume_after: str = ""
    resolving_all_pass: bool = False
