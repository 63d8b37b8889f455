"""21Moon events: facts in the past tense, JSON-serialisable, with the results of every draw."""
from __future__ import annotations

from typing import Literal

from pydantic import Field

from starbase_rules.contract import Event


class GameSetUp(Event):
    type: Literal["GameSetUp"] = "GameSetUp"
    players: list[str]                       # seat order drawn at random (turn order cards)
    held_back: str                           # corporation drawn to wait until SR 3
    minerals: dict[str, str]                 # hex -> mineral, drawn at random
    starting_cash: int
    options: dict = Field(default_factory=dict)   # the table's resolved options (`moon21.options`);
                                                  # empty in games recorded before options: the rulebook


class RoundStarted(Event):
    type: Literal["RoundStarted"] = "RoundStarted"
    kind: Literal["ISR", "SR", "CR", "OR"]
    set_no: int = 0
    or_no: int = 0
    order: list[str] = Field(default_factory=list)    # CR: corporations in descending price order


class PriorityDealt(Event):
    type: Literal["PriorityDealt"] = "PriorityDealt"
    player: str


class AuctionTurn(Event):
    type: Literal["AuctionTurn"] = "AuctionTurn"
    player: str


class PrivateBought(Event):
    type: Literal["PrivateBought"] = "PrivateBought"
    player: str
    private: str
    price: int


class BidPlaced(Event):
    type: Literal["BidPlaced"] = "BidPlaced"
    player: str
    private: str
    amount: int


class AuctionPassed(Event):
    type: Literal["AuctionPassed"] = "AuctionPassed"
    player: str


class PrivatePriceDropped(Event):
    type: Literal["PrivatePriceDropped"] = "PrivatePriceDropped"
    private: str
    price: int


class ResolutionStarted(Event):
    type: Literal["ResolutionStarted"] = "ResolutionStarted"
    private: str
    player: str                              # the lowest bidder, who acts first
    resume: str                              # who takes the next ordinary auction turn afterwards


class ResolutionPassed(Event):
    type: Literal["ResolutionPassed"] = "ResolutionPassed"
    player: str
    next_player: str


class OldLandingSitePlaced(Event):
    type: Literal["OldLandingSitePlaced"] = "OldLandingSitePlaced"
    player: str
    hex: str
    tile: str
    rotation: int
    depot: int


class SharesSold(Event):
    type: Literal["SharesSold"] = "SharesSold"
    seller: str                              # holder id: p:<player> or c:<corp>
    certs: list[str]
    price: int


class SharesIssued(Event):
    type: Literal["SharesIssued"] = "SharesIssued"
    corp: str
    certs: list[str]
    price: int


class ShareBought(Event):
    type: Literal["ShareBought"] = "ShareBought"
    buyer: str                               # holder id
    cert: str
    source: str                              # "ipo" or "pool"
    price: int


class CorporationStarted(Event):
    type: Literal["CorporationStarted"] = "CorporationStarted"
    player: str
    corp: str
    par: int


class CorporationFloated(Event):
    type: Literal["CorporationFloated"] = "CorporationFloated"
    corp: str


class CertificatesSwapped(Event):
    type: Literal["CertificatesSwapped"] = "CertificatesSwapped"
    player: str
    corp: str
    taken: str
    given: str


class TunnelShareTaken(Event):
    type: Literal["TunnelShareTaken"] = "TunnelShareTaken"
    taker: str                               # holder id
    cert: str


class PresidencyChanged(Event):
    type: Literal["PresidencyChanged"] = "PresidencyChanged"
    corp: str
    outgoing: str                            # holder id ("pool" when leaving receivership)
    incoming: str
    handed: list[str]


class PriceMoved(Event):
    type: Literal["PriceMoved"] = "PriceMoved"
    corp: str
    direction: Literal["up", "down", "left", "right"]
    steps: int = 1
    reason: str = ""


class StockTurnEnded(Event):
    type: Literal["StockTurnEnded"] = "StockTurnEnded"
    player: str
    passed: bool


class CorporateTurnStarted(Event):
    type: Literal["CorporateTurnStarted"] = "CorporateTurnStarted"
    corp: str


class CorporateTurnEnded(Event):
    type: Literal["CorporateTurnEnded"] = "CorporateTurnEnded"
    corp: str


class SpacePortValueChanged(Event):
    type: Literal["SpacePortValueChanged"] = "SpacePortValueChanged"
    value: int


class PrivateClosed(Event):
    type: Literal["PrivateClosed"] = "PrivateClosed"
    private: str
    reason: str


class PrivateRevenuePaid(Event):
    type: Literal["PrivateRevenuePaid"] = "PrivateRevenuePaid"
    private: str
    holder: str
    amount: int


class OperatingTurnStarted(Event):
    type: Literal["OperatingTurnStarted"] = "OperatingTurnStarted"
    corp: str


class StepFinished(Event):
    type: Literal["StepFinished"] = "StepFinished"
    corp: str
    step: str
    next_step: str


class OperatingTurnEnded(Event):
    type: Literal["OperatingTurnEnded"] = "OperatingTurnEnded"
    corp: str


class TileLaid(Event):
    type: Literal["TileLaid"] = "TileLaid"
    corp: str
    base: str                                # LB, SP or "T" (the Terminal power)
    hex: str
    tile: str
    rotation: int
    cost: int


class RiftBridgeBonusPaid(Event):
    type: Literal["RiftBridgeBonusPaid"] = "RiftBridgeBonusPaid"
    corp: str
    amount: int


class DepotPlaced(Event):
    type: Literal["DepotPlaced"] = "DepotPlaced"
    corp: str
    hex: str
    depot: int
    cost: int
    free: bool = False


class ResearchMarkerPlaced(Event):
    type: Literal["ResearchMarkerPlaced"] = "ResearchMarkerPlaced"
    corp: str
    hex: str


class TransportMoved(Event):
    type: Literal["TransportMoved"] = "TransportMoved"
    corp: str
    from_base: str
    transport: int


class TransportsRun(Event):
    type: Literal["TransportsRun"] = "TransportsRun"
    corp: str
    base: str
    runs: list[dict]
    revenue: int


class EarningsPaid(Event):
    type: Literal["EarningsPaid"] = "EarningsPaid"
    corp: str
    base: str
    revenue: int
    payouts: dict[str, int]                  # holder id -> amount (treasury for local base/receivership)


class BonusTokensTaken(Event):
    type: Literal["BonusTokensTaken"] = "BonusTokensTaken"
    corp: str
    areas: list[str]


class TransportBought(Event):
    type: Literal["TransportBought"] = "TransportBought"
    corp: str
    base: str
    transport: int
    price: int
    from_corp: str | None = None
    from_base: str | None = None
    president_paid: int = 0                  # emergency: what the president added


class PhaseChanged(Event):
    type: Literal["PhaseChanged"] = "PhaseChanged"
    phase: str
    removed_type: int | None = None


class PrivateSold(Event):
    type: Literal["PrivateSold"] = "PrivateSold"
    private: str
    seller: str
    corp: str
    price: int


class UnContractUsed(Event):
    type: Literal["UnContractUsed"] = "UnContractUsed"
    corp: str
    action: str
    transport_type: int | None = None


class DealProposed(Event):
    type: Literal["DealProposed"] = "DealProposed"
    corp: str                                # the buying (operating) corporation
    seller: str                              # the player whose consent is needed
    kind: Literal["private", "transport"]
    price: int
    private: str | None = None
    from_corp: str | None = None
    from_base: str | None = None             # the seller's base (None in deals recorded before it was named)
    transport: int | None = None
    base: str | None = None


class DealAnswered(Event):
    type: Literal["DealAnswered"] = "DealAnswered"
    seller: str
    accepted: bool


class EmergencyBegan(Event):
    type: Literal["EmergencyBegan"] = "EmergencyBegan"
    corp: str
    need: int


class PlayerBankrupt(Event):
    type: Literal["PlayerBankrupt"] = "PlayerBankrupt"
    player: str
    successors: dict[str, str | None]        # corp -> new president (None: receivership)


class CorporationClosed(Event):
    type: Literal["CorporationClosed"] = "CorporationClosed"
    corp: str
    reason: str


class GameFinished(Event):
    type: Literal["GameFinished"] = "GameFinished"
    reason: str
    standings: list[dict]                    # [{player, rank, score}]
