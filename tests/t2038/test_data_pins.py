"""Facts of the data files (`libs/t2038/data/*.yaml`) that the other tests let change, pinned through
what the engine does with them.

A data mutation sweep (each integer of a data file +1, one at a time) found these entries unpinned; each
table below holds the expected values with their source (the rulebook's chart or section, or the
reference's gap ruling that docs/t2038.md names), and each test reaches them through a decision, a price
or a value the engine computes: the printed bids of the auction (entities.yaml `privates`,
`independents`), the operators' delivery bonuses and the corporations' marker supplies (`independents`,
`corporations`), the claim prices per round (`costs`); the stock chart's boxes and starting boxes
(market.yaml); a claimed mine's value (tiles.yaml); the transshipment points' values and the bases' ore
bonuses (map.yaml).
"""
import pytest

from t2038 import commands as cmd
from t2038 import events as ev
from t2038.state import Options
from t2038.values import route_value

from .helpers import game, given, of_type, price, refused, tile_of, when
from .stock_fixtures import tsi_held
from .test_purchases_and_counters import corp_buying
from .test_routes import ore_crusher_with_a_scout
from .test_rulebook_review import league_formed_with_declines

# Company and Corporation Summary (chart): the privates' printed bids; the Independents' $100 is the
# repository's (reference gaps G14), as Figure 2's $100 opening bids and 5.14's "$100 plus 1/2 of any
# amount above $100" read it.
PRINTED_BIDS = {0: 50, 1: 100, 2: 100, 3: 100, 4: 100, 5: 100, 6: 100, 7: 120, 8: 140, 9: 160, 10: 180, 11: 180}


@pytest.mark.parametrize("company", sorted(PRINTED_BIDS))
def test_each_company_sells_at_its_printed_bid_and_no_less(company):
    # 5.1: the company available (the lowest unsold) is bought at its printed bid, or more.
    state = given(game(), *[ev.CompanyAcquired(company=n, owner="p:bob", price=0) for n in range(company)])
    refused(state, "ann", cmd.BuyCompany(price=PRINTED_BIDS[company] - 1), "BID_TOO_LOW")
    state, events = when(state, "ann", cmd.BuyCompany())
    assert [(e.company, e.price) for e in of_type(events, ev.CompanyAcquired)] == [(company, PRINTED_BIDS[company])]
    assert state.cash("p:ann") == 450 - PRINTED_BIDS[company]


# Company and Corporation Summary (chart), "Delivery Bonus" column: per ore delivered by the operator's ships.
DELIVERY_BONUS = {"i:1": {}, "i:2": {"I": 10}, "i:3": {"R": 10}, "i:4": {"N": 10}, "i:5": {}, "i:6": {},
                  "c:TSI": {}, "c:RU": {}, "c:LE": {"N": 10}, "c:MM": {"I": 10}, "c:VP": {"R": 10},
                  "c:OPC": {"N": 10}, "c:RCC": {"N": 10}, "c:AL": {}}


@pytest.mark.parametrize("operator", sorted(DELIVERY_BONUS))
@pytest.mark.parametrize("ore", ["N", "I", "R"])
def test_each_operator_earns_its_charts_delivery_bonus_per_ore(operator, ore):
    # One ore of a $20 mine delivered to TSI's base K9, a base that pays no bonus of its own.
    value = route_value([(ore, 20)], 1, "K9", operator=operator, is_base=True, is_transshipment=False, phase=1,
                        options=Options())
    assert value == 20 + DELIVERY_BONUS[operator].get(ore, 0)


# Company and Corporation Summary (chart), "Bases / Refuel / Claims" columns: each corporation's marker supply
# (7.44: limited, never moved). Group C (OPC, RCC) is "not available in the Short Game" (Let's Play!).
MARKERS = {"TSI": (1, 3, 10), "RU": (1, 1, 12), "LE": (1, 2, 9), "MM": (3, 3, 6), "VP": (3, 4, 5),
           "OPC": (2, 3, 7), "RCC": (2, 2, 8), "AL": (7, 4, 15)}


@pytest.mark.parametrize("short", [False, True])
def test_each_corporation_starts_with_the_charts_bases_stations_and_claims(short):
    state = game(short=short)
    expected = {corp: {"base": bases, "refuel": refuel, "claim": claims}
                for corp, (bases, refuel, claims) in MARKERS.items() if not (short and corp in ("OPC", "RCC"))}
    assert state.counters_left == expected


def explored(state, hexes):
    """`state` with a Nickel tile drawn on each hex."""
    for hex_ in hexes:
        state = given(state, ev.HexExplored(hex=hex_, tile=tile_of("N20", state)))
    return state


def place_claims(state, player, hexes):
    """The operator claims mine 0 of each hex but the last in turn: the price of each; the last is refused."""
    prices = []
    for hex_ in hexes[:-1]:
        state, events = when(state, player, cmd.PlaceClaim(hex=hex_, mine=0))
        prices += [e.price for e in of_type(events, ev.ClaimPlaced)]
    refused(state, player, cmd.PlaceClaim(hex=hexes[-1], mine=0), "CLAIM_LIMIT")
    return prices


def test_resources_unlimited_pays_nothing_then_100_for_its_claims_of_a_round():
    # 7.43 and the chart: RU's first claim each round is free, the second costs $100; no third.
    hexes = ["D10", "C9", "E9"]                                              # next to RU's base D8
    assert place_claims(explored(corp_buying("RU"), hexes), "ann", hexes) == [0, 100]


def test_the_league_pays_60_75_then_100_for_its_three_claims_of_a_round():
    # 7.43 and the chart: the Asteroid League's second claim costs $75, its third $100; no fourth.
    state = league_formed_with_declines()                                    # dee's League, TSI buying
    ship = min(sid for sid, s in state.ships.items() if s.owner == "bank" and s.phase == 3)
    hexes = ["H8", "H12", "G9", "G11"]                                       # next to the League's base H10
    state = given(explored(state, hexes), ev.OperatorFinished(operator="c:TSI"),
                  ev.OperatorStarted(operator="c:AL", price=125),
                  ev.ShipBought(ship=ship, buyer="c:AL", kind="tug", price=0),
                  ev.EarningsDeclared(operator="c:AL", choice="retain", earnings=0, retained=0, per_share=0),
                  ev.CashMoved(source="bank", destination="c:AL", amount=500))
    assert place_claims(state, "dee", hexes) == [60, 75, 100]


# The stock price chart, rows[0] the top row, as the reference has it (the repository's grid, the rulebook
# printing it only as a graphic): every price the rulebook names is on it (Fig 7: 59, 67, 76; Fig 10: 185,
# 243, 264, 440; the pars 67, 77, 88, 100, 125; Growth's $10) and each box is $1 above the box down and
# right of it (Design Notes), reference gaps G5.
CHART = [[71, 80, 90, 101, 113, 126, 140, 155, 171, 188, 206, 225, 245, 266, 288, 311, 335, 360, 386, 413, 441, 470,
          500],
         [62, 70, 79, 89, 100, 112, 125, 139, 154, 170, 187, 205, 224, 244, 265, 287, 310, 334, 359, 385, 412, 440,
          469],
         [54, 61, 69, 78, 88, 99, 111, 124, 138, 153, 169, 186, 204, 223, 243, 264],
         [46, 53, 60, 68, 77, 87, 98, 110, 123, 137, 152, 168, 185],
         [36, 45, 52, 59, 67, 76, 86, 97, 109, 122, 136],
         [24, 35, 44, 51, 58, 66, 75, 85, 96],
         [10, 23, 34, 43, 50, 57, 65]]
BOXES = [(row, column) for row, prices in enumerate(CHART) for column in range(len(prices))]


@pytest.mark.parametrize("row, column", BOXES)
def test_a_market_share_costs_the_price_in_its_corporations_box(row, column):
    # 5.3: a share bought from the Stock Market costs the corporation's stock price.
    state = given(tsi_held({"ann": 2}, market=1), ev.StockPriceMoved(corp="TSI", row=row, column=column),
                  ev.CashMoved(source="bank", destination="p:ann", amount=100))
    state, _ = when(state, "ann", cmd.BuyShare(corp="TSI", source="market"))
    assert state.cash("p:ann") == 550 - CHART[row][column]


@pytest.mark.parametrize("par", [67, 77, 88, 100])
def test_a_public_corporation_starts_at_its_par(par):
    # 5.4: the launching player sets the par (67, 77, 88 or 100); the price marker starts at it.
    state, _ = when(tsi_held({"ann": 2}), "ann", cmd.LaunchCorporation(corp="RU", par=par))
    assert price(state, "RU") == state.par["RU"] == par


@pytest.mark.parametrize("options, par", [({}, 100), ({"short": True}, 67), ({"weaker_tsi": 89}, 89),
                                          ({"weaker_tsi": 78}, 78), ({"weaker_tsi": 67}, 67)])
def test_tsi_starts_at_its_par_with_ten_times_par(options, par):
    # 5.1 / the Short game / the Weaker TSI optional rule: TSI's price and par $100, $67, or 89/78/67, and
    # 10 x par in its treasury, once company 10 is bought and it is active.
    sold = [ev.CompanyAcquired(company=n, owner="p:bob", price=0) for n in range(10)]
    shares = [ev.SharesMoved(corp="TSI", source="ipo", destination="p:bob", units=1) for _ in range(3)]
    state, _ = when(given(game(**options), *sold, *shares), "ann", cmd.BuyCompany())
    assert price(state, "TSI") == state.par["TSI"] == par and state.cash("c:TSI") == 10 * par


# Claimed mine values (reference gaps G6): the rulebook prints N20 -> 60 (Fig 6), I30 -> 40 (Fig 5) and
# R30 -> 60 (Fig 9); the others are the repository's, all fitting claimed = unclaimed + N 40 / I 10 / R 30.
CLAIMED = {"N10": 50, "N20": 60, "I30": 40, "I40": 50, "I50": 60, "R20": 50, "R30": 60, "R40": 70}


@pytest.mark.parametrize("kind", sorted(CLAIMED))
def test_a_pickup_at_an_own_claimed_mine_is_worth_its_claimed_value(kind):
    # 7.1: once claimed, a mine's ore is worth its higher value (to its owner's ships only).
    state = given(ore_crusher_with_a_scout(), ev.HexExplored(hex="N4", tile=tile_of(kind)),
                  ev.ClaimPlaced(holder="i:4", hex="N4", mine=0, price=0))
    state, _ = when(state, "ann", cmd.StartRoute(ship="1.01", base="M5"))
    state, _ = when(state, "ann", cmd.Move(hex="N4"))
    _, events = when(state, "ann", cmd.PickUp(mine=0))
    assert [(e.ore, e.value) for e in of_type(events, ev.OrePickedUp)] == [(kind[0], CLAIMED[kind])]


# Transshipment points (reference gaps G2, ASSUMED, docs/t2038.md): an empty hold ending there earns the
# lower value ($20 or $30, 7.1), the higher one from Phase IV (the `transshipment_high_from_phase` default).
TRANSSHIPMENT = {"A13": (30, 60), "D2": (30, 60), "H10": (30, 60), "H18": (20, 70), "O11": (30, 60)}


@pytest.mark.parametrize("hex_", sorted(TRANSSHIPMENT))
@pytest.mark.parametrize("phase", [1, 3, 4, 6])
def test_an_empty_hold_at_a_transshipment_point_earns_its_value_for_the_phase(hex_, phase):
    low, high = TRANSSHIPMENT[hex_]
    value = route_value([], 1, hex_, operator="c:TSI", is_base=False, is_transshipment=True, phase=phase,
                        options=Options())
    assert value == (high if phase >= 4 else low)


# Base ore bonuses per ore delivered by any ship (reference gaps G3, docs/t2038.md): LE +10 Nickel (Figs 6
# and 9) and OPC +10 Ice (Fig 8) are the rulebook's; VP +20 Rare (at least 20 derived from Fig 9), MM +20 Ice
# and RCC +10 Nickel ASSUMED; every other printed base none.
BASE_BONUS = {"O1": {"N": 10}, "J18": {"I": 10}, "J2": {"R": 20}, "A1": {"I": 20}, "F18": {"N": 10},
              "B6": {}, "D8": {}, "D14": {}, "G7": {}, "H14": {}, "K9": {}, "M5": {}, "M13": {}}


@pytest.mark.parametrize("hex_", sorted(BASE_BONUS))
@pytest.mark.parametrize("ore", ["N", "I", "R"])
def test_each_printed_base_pays_its_ore_bonus(hex_, ore):
    # TSI earns no delivery bonus of its own: what it earns above the mine's $20 is the base's.
    value = route_value([(ore, 20)], 1, hex_, operator="c:TSI", is_base=True, is_transshipment=False, phase=1,
                        options=Options())
    assert value == 20 + BASE_BONUS[hex_].get(ore, 0)
