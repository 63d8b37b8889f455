"""21Moon commands: imperatives a player sends. Each has a `type` discriminator and version `v`."""
from __future__ import annotations

from typing import Literal

from pydantic import Field

from starbase_rules.contract import Command


class _Cmd(Command):
    v: int = 1


class Pass(_Cmd):
    """Pass in the auction or the stock round, or finish the current step/turn of a corporation."""
    type: Literal["Pass"] = "Pass"


class BuyPrivate(_Cmd):
    """Initial stock round: buy the first private company in line at its current price."""
    type: Literal["BuyPrivate"] = "BuyPrivate"
    private: str


class BidOnPrivate(_Cmd):
    """Initial stock round: bid on a later private, or raise in a resolution auction."""
    type: Literal["BidOnPrivate"] = "BidOnPrivate"
    private: str
    amount: int


class PlaceOldLandingSite(_Cmd):
    type: Literal["PlaceOldLandingSite"] = "PlaceOldLandingSite"
    hex: str
    tile: str
    rotation: int
    depot: int = 0


class SellShares(_Cmd):
    """Sell `count` shares of `corp` (a player in a stock round or raising money; a corporation's
    treasury in a corporate round or emergency)."""
    type: Literal["SellShares"] = "SellShares"
    corp: str
    count: int = 1
    seller: Literal["player", "corporation"] = "player"


class BuyShare(_Cmd):
    type: Literal["BuyShare"] = "BuyShare"
    corp: str
    source: Literal["ipo", "pool"] = "ipo"


class StartCorporation(_Cmd):
    type: Literal["StartCorporation"] = "StartCorporation"
    corp: str
    par: int


class SwapCertificate(_Cmd):
    """Give one of your certificates to the treasury of `corp` (you preside it) for one it holds."""
    type: Literal["SwapCertificate"] = "SwapCertificate"
    corp: str
    take: str
    give: str


class TakeTunnelShare(_Cmd):
    """P6 Tunnel Company: take one share of `corp` from the bank pool for free (SR 2-4)."""
    type: Literal["TakeTunnelShare"] = "TakeTunnelShare"
    corp: str


class IssueShares(_Cmd):
    type: Literal["IssueShares"] = "IssueShares"
    count: int


class LayTile(_Cmd):
    type: Literal["LayTile"] = "LayTile"
    base: Literal["LB", "SP"]
    hex: str
    tile: str
    rotation: int


class LayTerminal(_Cmd):
    """P5: lay the Terminal tile on F8 (any rotation, no route) and maybe the cheapest depot on it."""
    type: Literal["LayTerminal"] = "LayTerminal"
    rotation: int
    place_depot: bool = True


class PlaceDepot(_Cmd):
    type: Literal["PlaceDepot"] = "PlaceDepot"
    hex: str
    depot: int = 0


class PlaceResearchMarker(_Cmd):
    type: Literal["PlaceResearchMarker"] = "PlaceResearchMarker"
    hex: str


class MoveTransport(_Cmd):
    type: Literal["MoveTransport"] = "MoveTransport"
    from_base: Literal["LB", "SP"]
    transport: int


class RunTransports(_Cmd):
    """The runs of both bases; each run is the board's route JSON. Must earn the most possible."""
    type: Literal["RunTransports"] = "RunTransports"
    runs: dict[str, list[dict]] = Field(default_factory=dict)


class BuyTransport(_Cmd):
    """Buy the top transport of the stack for `base`, or (with `from_corp`) a type `transport` transport
    from another corporation's base `from_base` at an agreed `price`. `from_base` may be left out only
    when the seller holds that type at one base."""
    type: Literal["BuyTransport"] = "BuyTransport"
    base: Literal["LB", "SP"]
    from_corp: str | None = None
    from_base: Literal["LB", "SP"] | None = None
    transport: int | None = None
    price: int | None = None


class AcquirePrivate(_Cmd):
    """The operating corporation buys a private from a player (its owner must consent unless it is the
    corporation's own president)."""
    type: Literal["AcquirePrivate"] = "AcquirePrivate"
    private: str
    price: int


class UseUnContract(_Cmd):
    type: Literal["UseUnContract"] = "UseUnContract"
    action: Literal["add", "remove", "none"]
    transport_type: int | None = None


class AnswerDeal(_Cmd):
    """Consent (or not) to the operating corporation buying your private or your corporation's transport."""
    type: Literal["AnswerDeal"] = "AnswerDeal"
    accept: bool


class DeclareBankruptcy(_Cmd):
    type: Literal["DeclareBankruptcy"] = "DeclareBankruptcy"


COMMANDS = (
    Pass, BuyPrivate, BidOnPrivate, PlaceOldLandingSite, SellShares, BuyShare, StartCorporation,
    SwapCertificate, TakeTunnelShare, IssueShares, LayTile, LayTerminal, PlaceDepot, PlaceResearchMarker,
    MoveTransport, RunTransports, BuyTransport, AcquirePrivate, UseUnContract, AnswerDeal, DeclareBankruptcy,
)
