"""Every refusal code: the command is refused with that code, a message, and the state is unchanged."""
import re
from pathlib import Path

import pytest
from stellar_given import auction_table, started_table

from starbase_rules.contract import RuleViolation
from stellar import commands as c
from stellar.game import GAME

GG, CE, PK, FR, SC, AM = ("gamboge_guild", "cerulean_council", "pink_inc", "frost_federated",
                          "scarlet_syndicate", "amethyst_agency")


def _build(corp=GG, player="bob", cash=20, powers=("alien_explorers",)):
    t = started_table()
    t.power(corp, *powers)
    t.corporation_turn(corp, "build")
    t.treasury(corp, cash)
    t.do(player, c.BeginExpansion())
    return t


def _opened_auction():
    t = auction_table()
    opener = t.state.auction.order[0]
    t.do(opener, c.Bid(amount=3))
    return t, t.state.auction.order[1]


def _shenanigans(part="investor"):
    t = started_table()
    t.investor_step("shenanigans", part=part)
    return t, t.state.director


def _voting():
    t = started_table()
    t.investor_step("voting")
    return t, t.state.director


def _ended():
    t = started_table()
    t.state.round = "over"
    return t


def _ships(cash=0, forced=False, corp=GG):
    t = started_table()
    t.corporation_turn(corp, "ships", forced_ship=forced)
    t.treasury(corp, cash)
    return t


def _no_outposts_for_loan():
    t = _ships(forced=True)
    t.corp(GG).supply, t.corp(GG).boxed = 0, t.corp(GG).boxed + t.corp(GG).supply
    t.state.outposts["0,4"].remove(GG)
    t.corp(GG).boxed += 1
    return t, "bob", c.OrderShip()


def _full_columns():
    t = _ships(cash=9)
    for _ in range(3):
        t.ship(GG, 1)
    return t, "bob", c.OrderShip()


def _pending_draft():
    t = started_table()
    t.state.pending = []
    t.corporation_turn(PK, "build")
    t.treasury(PK, 5)
    t.outpost(PK, "1,1", "4,5", "5,0")
    t.state.alien_tiles["6,0"] = 1
    t.do("ann", c.BeginExpansion())
    t.do("ann", c.PlaceOutpost(hex="6,0"))
    t.do("ann", c.SignAgreement())
    return t


def _no_network():
    t = started_table()
    t.corp(CE).wormhole = True
    t.state.outposts["1,2"].remove(CE)
    t.corp(CE).boxed += 1
    t.corporation_turn(CE, "build")
    return t, "ann", c.CreateWormhole(hex="5,0")


SCENARIOS = {
    "NOT_YOUR_TURN": lambda: (started_table(), "bob", c.IssueShare()),
    "WRONG_STEP": lambda: (started_table(), "ann", c.OrderShip()),
    "BID_TOO_LOW": lambda: (*_opened_auction(), c.Bid(amount=3)),
    "INSUFFICIENT_FUNDS": lambda: (*_opened_auction(), c.Bid(amount=999)),
    "INITIATOR_MUST_BID": lambda: (auction_table(), auction_table().state.auction.order[0], c.PassBid()),
    "LAST_BIDDER_MUST_BID": lambda: _all_but_last_passed(),
    "NO_AUCTION": lambda: (started_table(), "ann", c.Bid(amount=1)),
    "POWER_NOT_AVAILABLE": lambda: (_pending_draft(), "ann", c.DraftPower(power="no_such_power")),
    "NOT_A_HOME_OPTION": None,          # covered in test_flow (Amethyst launch)
    "NO_SUCH_DECISION": lambda: (started_table(), "ann", c.SignAgreement()),
    "UNKNOWN_CORPORATION": lambda: (started_table(), "ann", c.UseLeakedResearch(corp="nobody")),
    "NOT_PRESIDENT": lambda: (started_table(), "ann", c.UseLeakedResearch(corp=SC)),
    "POWER_NOT_ACTIVE": lambda: (started_table(), "ann", c.UseLeakedResearch(corp=CE)),
    "DECISION_PENDING": lambda: (_pending_draft(), "ann", c.FinishBuilding()),
    "NO_EMPTY_COLUMN": _full_columns,
    "LOAN_NOT_ALLOWED": lambda: (_ships(cash=5), "bob", c.OrderShip(loan_outposts=["supply"])),
    "BAD_LOAN_OUTPOST": lambda: (_ships(forced=True), "bob", c.OrderShip(loan_outposts=["5,5"])),
    "TOO_MANY_LOANS": lambda: (_ships(forced=True), "bob", c.OrderShip(loan_outposts=["supply", "supply"])),
    "NO_OUTPOSTS_FOR_LOAN": _no_outposts_for_loan,
    "FORCED_SHIP_ORDER": lambda: (_ships(forced=True), "bob", c.FinishOrdering()),
    "POWER_ALREADY_USED": None,         # covered in test_powers (Alien Alchemist, Dismantling)
    "NO_OUTPOSTS_LEFT": lambda: (_drained_alchemist(), "ann", c.UseAlienAlchemist(corp=PK)),
    "NOT_DISMANTLABLE": None,           # covered in test_powers
    "WORMHOLE_ALREADY_ACTIVE": lambda: (_wormholed(), "cy", c.UseLeakedResearch(corp=SC)),
    "NO_TECHNOLOGY": lambda: (_cubeless(), "cy", c.UseLeakedResearch(corp=SC)),
    "BUILD_LIMIT": lambda: (_jerry_full(), None, None),
    "UNKNOWN_HEX": lambda: (_build(), "bob", c.PlaceOutpost(hex="99,99")),
    "OUTPOST_ALREADY_THERE": lambda: (_build(), "bob", c.PlaceOutpost(hex="0,4")),
    "HOME_PLANET_RESERVED": lambda: (_built_near_amethyst(), "bob", c.PlaceOutpost(hex="0,7")),
    "ANOMALY": lambda: (_sun_next(), "bob", c.PlaceOutpost(hex="4,4")),
    "ALIEN_PLANET_FORBIDDEN": lambda: (_alien_next(), "bob", c.PlaceOutpost(hex="4,5")),
    "HEX_FULL": lambda: (_full_next(), "bob", c.PlaceOutpost(hex="1,5")),
    "NOT_ADJACENT": lambda: (_build(), "bob", c.PlaceOutpost(hex="14,0")),
    "NO_WORMHOLE_TECH": lambda: (_at_build(), "bob", c.CreateWormhole(hex="5,0")),
    "NO_NETWORK": _no_network,
    "NO_BUILD": lambda: (started_table(), "ann", c.PlaceOutpost(hex="2,2")),
    "NOT_A_BATTLE_TARGET": lambda: (*_voting(), c.PlaceVotes(corp=AM, count=1)),
    "NOT_ENOUGH_VOTES": lambda: (*_voting(), c.PlaceVotes(corp=GG, count=7)),
    "DISC_ALREADY_THERE": None,         # covered in test_flow (Private Contractor)
    "NOT_SHAREHOLDER": lambda: (*_shenanigans(), c.HireContractor(corp=GG)),
    "NO_SUCH_SHIP": lambda: (*_shenanigans(), c.InsuranceFraud(corp=SC, level=3)),
    "BAD_CUBE_COUNT": lambda: (*_shenanigans("alien"), c.CargoBoost(corp=SC, cubes=3)),
    "BAD_PLANETS": lambda: (*_shenanigans("alien"), c.DevelopPlanets(hexes=["0,4"])),
    "GAME_OVER": lambda: (_ended(), "ann", c.PassBid()),
    "NOT_A_PLAYER": lambda: (started_table(), "mallory", c.IssueShare()),
}


def _all_but_last_passed():
    """Option auction_opener_may_pass: an initial auction's share must be sold, so the last player in bids."""
    t = auction_table(options={"auction_opener_may_pass": True})
    order = t.state.auction.order
    for player in order[:-1]:
        t.do(player, c.PassBid())
    return t, order[-1], c.PassBid()


def _drained_alchemist():
    t = started_table()
    t.power(PK, "alien_alchemist")
    t.corporation_turn(PK)
    t.corp(PK).boxed += t.corp(PK).supply - 1
    t.corp(PK).supply = 1
    return t


def _wormholed():
    t = started_table()
    t.corp(SC).wormhole = True
    return t


def _cubeless():
    t = started_table()
    t.cubes("cy", 0)
    return t


def _jerry_full():
    t, player = _shenanigans()
    t.do(player, c.JerryRig(corp=SC))
    t.do(player, c.PlaceOutpost(hex="10,1"))
    return t


def _at_build():
    t = started_table()
    t.corporation_turn(GG, "build")
    return t


def _sun_next():
    t = _build()
    t.outpost(GG, "3,4")
    return t


def _alien_next():
    t = _build(powers=())
    t.outpost(GG, "3,5")
    return t


def _full_next():
    t = _build()
    t.outpost(CE, "1,5")
    t.outpost(PK, "1,5")
    return t


def _built_near_amethyst():
    t = _build()
    t.outpost(GG, "0,6")
    return t


@pytest.mark.parametrize("code", sorted(k for k, v in SCENARIOS.items() if v is not None))
def test_refusal(code):
    t, actor, command = SCENARIOS[code]()
    if code == "BUILD_LIMIT":
        # Jerry-Rig builds one outpost: after it the build is closed and a second placement is refused.
        t.refused(t.state.director, c.PlaceOutpost(hex="10,0"), "NO_BUILD")
        from stellar.building import placement_error
        from stellar.state import Build
        t.state.build = Build(SC, "jerry_rig", "cy", "liquid:cy", placed=["10,1"])
        assert placement_error(t.state, "10,0")[0] == "BUILD_LIMIT"
        return
    t.refused(actor, command, code)


def test_malformed_commands_are_refused():
    for data in ({"type": "Fly"}, {"type": "Bid"}, {"type": "Bid", "amount": 1, "extra": 2}, []):
        with pytest.raises(RuleViolation) as caught:
            GAME.parse_command(data)
        assert caught.value.code == "MALFORMED_COMMAND"


def test_every_refusal_code_in_the_engine_is_exercised():
    source = "\n".join(p.read_text() for p in Path(__import__("stellar").__file__).parent.glob("*.py"))
    codes = set(re.findall(r'"([A-Z][A-Z_]{3,})"', source)) - {"MALFORMED_COMMAND"}
    assert codes <= set(SCENARIOS) | {"BAD_PLAYER_COUNT", "UNKNOWN_OPTION", "BAD_OPTION"}, codes - set(SCENARIOS)
