"""Commands of 2038: imperatives a player sends. Each one is checked by `decide` and refused with a code."""
from __future__ import annotations

from typing import Literal

from starbase_rules.contract import Command


# ---- initial auction (companies 0-11)
class BuyCompany(Command):
    type: Literal["BuyCompany"] = "BuyCompany"
    price: int | None = None        # default: the printed bid (more is allowed)


class BidOnCompany(Command):
    type: Literal["BidOnCompany"] = "BidOnCompany"
    company: int
    amount: int


class RaiseBid(Command):
    type: Literal["RaiseBid"] = "RaiseBid"
    amount: int


class DropOut(Command):
    type: Literal["DropOut"] = "DropOut"


# ---- stock rounds
class SellShares(Command):
    type: Literal["SellShares"] = "SellShares"
    corp: str
    count: int = 1


class BuyShare(Command):
    type: Literal["BuyShare"] = "BuyShare"
    corp: str
    source: Literal["ipo", "market", "growth"] = "ipo"


class LaunchCorporation(Command):
    type: Literal["LaunchCorporation"] = "LaunchCorporation"
    corp: str
    par: int


class LaunchGrowth(Command):
    """Turn an Independent in for an available corporation's President's certificate (Phases II-III)."""
    type: Literal["LaunchGrowth"] = "LaunchGrowth"
    corp: str
    independent: int


class FormLeague(Command):
    type: Literal["FormLeague"] = "FormLeague"


class MergeIndependent(Command):
    type: Literal["MergeIndependent"] = "MergeIndependent"
    independent: int


class AcceptDeal(Command):
    """Consent to the purchase a company or corporation offered (a ship, a private, a claim)."""
    type: Literal["AcceptDeal"] = "AcceptDeal"


class Decline(Command):
    """Decline to form the League now, or keep an Independent out of it for now."""
    type: Literal["Decline"] = "Decline"


class Pass(Command):
    """End the stock turn (a pass when nothing was bought or sold) or pass in the auction."""
    type: Literal["Pass"] = "Pass"


# ---- operating rounds
class StartRoute(Command):
    type: Literal["StartRoute"] = "StartRoute"
    ship: str
    base: str
    pilot: int | None = None        # a corporation's pilot (a former Independent) assigned to this ship


class Move(Command):
    type: Literal["Move"] = "Move"
    hex: str
    explore: bool = False


class ChooseTile(Command):
    type: Literal["ChooseTile"] = "ChooseTile"
    tile: int


class PickUp(Command):
    type: Literal["PickUp"] = "PickUp"
    mine: int


class EndRoute(Command):
    type: Literal["EndRoute"] = "EndRoute"


class DeclareEarnings(Command):
    type: Literal["DeclareEarnings"] = "DeclareEarnings"
    choice: Literal["retain", "split", "half", "full"]


class BuyShip(Command):
    type: Literal["BuyShip"] = "BuyShip"
    phase: int
    kind: Literal["scout", "tug", "freighter"]


class BuyShipFrom(Command):
    type: Literal["BuyShipFrom"] = "BuyShipFrom"
    ship: str
    price: int


class UpgradeShip(Command):
    type: Literal["UpgradeShip"] = "UpgradeShip"
    ship: str


class DiscardShip(Command):
    type: Literal["DiscardShip"] = "DiscardShip"
    ship: str


class PlaceClaim(Command):
    type: Literal["PlaceClaim"] = "PlaceClaim"
    hex: str
    mine: int


class BuyIndependentClaim(Command):
    type: Literal["BuyIndependentClaim"] = "BuyIndependentClaim"
    hex: str
    mine: int


class PlaceBase(Command):
    type: Literal["PlaceBase"] = "PlaceBase"
    hex: str


class PlaceStation(Command):
    type: Literal["PlaceStation"] = "PlaceStation"
    hex: str


class BuyPrivate(Command):
    """A corporation buys private 0 or 7-9 from its owner, for $1 up to the printed bid (Phases II-IV)."""
    type: Literal["BuyPrivate"] = "BuyPrivate"
    company: int
    price: int


class UsePrivate(Command):
    """Place the free black-edged counter of an owned private: 7 a base, 8 a station, 9 a claim."""
    type: Literal["UsePrivate"] = "UsePrivate"
    company: int
    hex: str
    mine: int = 0


class RepurchaseShare(Command):
    """Optional Stock Repurchases rule: the operating corporation buys one of its shares from the market."""
    type: Literal["RepurchaseShare"] = "RepurchaseShare"


class EmergencySell(Command):
    """A President raising cash for a corporation's mandatory ship (7.38)."""
    type: Literal["EmergencySell"] = "EmergencySell"
    corp: str
    count: int = 1


class DeclareBankruptcy(Command):
    type: Literal["DeclareBankruptcy"] = "DeclareBankruptcy"


class FinishOperating(Command):
    type: Literal["FinishOperating"] = "FinishOperating"
