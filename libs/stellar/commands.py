"""Commands: what a player asks for, in the imperative. One type per action."""
from __future__ import annotations

from typing import Literal

from starbase_rules.contract import Command


class Bid(Command):
    type: Literal["Bid"] = "Bid"
    amount: int


class PassBid(Command):
    type: Literal["PassBid"] = "PassBid"


class DraftPower(Command):
    type: Literal["DraftPower"] = "DraftPower"
    power: str


class IssueShare(Command):
    type: Literal["IssueShare"] = "IssueShare"


class DeclineIssue(Command):
    type: Literal["DeclineIssue"] = "DeclineIssue"


class BeginExpansion(Command):
    type: Literal["BeginExpansion"] = "BeginExpansion"


class CreateWormhole(Command):
    type: Literal["CreateWormhole"] = "CreateWormhole"
    hex: str


class SkipBuilding(Command):
    type: Literal["SkipBuilding"] = "SkipBuilding"


class PlaceOutpost(Command):
    type: Literal["PlaceOutpost"] = "PlaceOutpost"
    hex: str


class FinishBuilding(Command):
    type: Literal["FinishBuilding"] = "FinishBuilding"


class SignAgreement(Command):
    type: Literal["SignAgreement"] = "SignAgreement"


class DeclineAgreement(Command):
    type: Literal["DeclineAgreement"] = "DeclineAgreement"


class ChooseAgentsBonus(Command):
    """Secret Agents: before the tile is seen, raise Amethyst (+3) or the aliens (by the tile's chevrons)."""
    type: Literal["ChooseAgentsBonus"] = "ChooseAgentsBonus"
    choice: Literal["amethyst", "aliens"]


class ChooseTaxAction(Command):
    """Tax Agents, after an outpost on an alien planet: tax the other corporations there, steal 3 from the
    Tax Box, or neither."""
    type: Literal["ChooseTaxAction"] = "ChooseTaxAction"
    choice: Literal["tax", "steal", "none"]


class PayDividend(Command):
    type: Literal["PayDividend"] = "PayDividend"
    copy_mc_from: str | None = None        # Deep Space Pirates
    copy_cargo_from: str | None = None     # Deep Space Smuggling


class OrderShip(Command):
    type: Literal["OrderShip"] = "OrderShip"
    loan_outposts: list[str] = []          # "supply" or hex keys, used only for a forced order's loans


class FinishOrdering(Command):
    type: Literal["FinishOrdering"] = "FinishOrdering"


class UseAlienAlchemist(Command):
    type: Literal["UseAlienAlchemist"] = "UseAlienAlchemist"
    corp: str


class DismantleOutpost(Command):
    type: Literal["DismantleOutpost"] = "DismantleOutpost"
    corp: str
    hex: str


class UseLeakedResearch(Command):
    type: Literal["UseLeakedResearch"] = "UseLeakedResearch"
    corp: str


class ReclaimCubes(Command):
    """Alien Engineering: take back "any number" of the charter's cubes (default: all of them)."""
    type: Literal["ReclaimCubes"] = "ReclaimCubes"
    corp: str
    boost_cubes: int | None = None         # how many Cargo Boost cubes; None = all
    wormhole: bool | None = None           # the Wormhole cube; None = if there is one


class UseFinePrint(Command):
    type: Literal["UseFinePrint"] = "UseFinePrint"
    use: bool = True


class UseSpareParts(Command):
    """Keep the ship set aside by Spare Parts for one more dividend (the power is then spent), or scrap it now."""
    type: Literal["UseSpareParts"] = "UseSpareParts"
    keep: bool = True


class PlaceVotes(Command):
    type: Literal["PlaceVotes"] = "PlaceVotes"
    corp: str
    count: int


class PassVoting(Command):
    type: Literal["PassVoting"] = "PassVoting"


class ChooseBattleCorp(Command):
    type: Literal["ChooseBattleCorp"] = "ChooseBattleCorp"
    corp: str


class HireContractor(Command):
    type: Literal["HireContractor"] = "HireContractor"
    corp: str


class JerryRig(Command):
    type: Literal["JerryRig"] = "JerryRig"
    corp: str


class InsuranceFraud(Command):
    type: Literal["InsuranceFraud"] = "InsuranceFraud"
    corp: str
    level: int


class BlackMarket(Command):
    type: Literal["BlackMarket"] = "BlackMarket"


class PassInvestorAction(Command):
    type: Literal["PassInvestorAction"] = "PassInvestorAction"


class CargoBoost(Command):
    type: Literal["CargoBoost"] = "CargoBoost"
    corp: str
    cubes: int


class ResearchWormhole(Command):
    type: Literal["ResearchWormhole"] = "ResearchWormhole"
    corp: str


class DevelopPlanets(Command):
    type: Literal["DevelopPlanets"] = "DevelopPlanets"
    hexes: list[str]


class Launder(Command):
    type: Literal["Launder"] = "Launder"
    cubes: int


class PassAlienAction(Command):
    type: Literal["PassAlienAction"] = "PassAlienAction"


class ChooseHome(Command):
    type: Literal["ChooseHome"] = "ChooseHome"
    hex: str


class BackroomDeal(Command):
    type: Literal["BackroomDeal"] = "BackroomDeal"
    direction: Literal["up", "down", "none"]
