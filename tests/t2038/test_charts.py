"""The charts the rulebook prints only as graphics, as a table set up by the engine applies them.

Each chart is pinned entry by entry (per table size, variant or phase): the rule tests prove that the
limit or price in force is applied, these that it is the chart's, so a changed entry of the data file
fails here. Sources are named per chart below and in docs/t2038.md (ASSUMED values included).
"""
from collections import Counter

import pytest

from starbase_rules.fair import FairRng
from t2038 import events as ev
from t2038 import ships
from t2038.game import GAME
from t2038.state import State
from t2038.stock import certificate_limit

from .helpers import given

PLAYERS = ["ann", "bob", "cy", "dee", "eve", "fay"]
# The rulebook's 2-player rule (33 Full, 26 Short); the other Full values from the public implementation;
# the Short ones for 3-6 players ASSUMED.
CERTIFICATE_LIMITS = {"full": {2: 33, 3: 22, 4: 16, 5: 13, 6: 11},
                      "short": {2: 26, 3: 17, 4: 13, 5: 10, 6: 8}}


def set_up(players: int, variant: str) -> State:
    options = {"variant": variant, **({"two_player": True} if players == 2 else {})}
    return given(State(), *GAME.setup(PLAYERS[:players], options, FairRng(b"charts")))


@pytest.mark.parametrize("variant", ["full", "short"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_certificate_limit_is_the_charts_for_every_table_size(players, variant):
    assert certificate_limit(set_up(players, variant)) == CERTIFICATE_LIMITS[variant][players]


def test_a_table_option_replaces_the_chart():
    state = given(State(), *GAME.setup(PLAYERS[:5], {"certificate_limit": 9}, FairRng(b"charts")))
    assert certificate_limit(state) == 9


# The spaceship chart (docs/t2038.md): per phase, each side's (movement, holds, price), the cards in the
# box, and the phase from which they are obsolete (None: never). Phase I-II stats and Phase I prices are
# the rulebook's; the rest the public implementation's, with Phase III obsolete in Phase VI ASSUMED.
SHIPS = {1: {"scout": (5, 1, 100), "tug": (3, 2, 100), "count": 10, "obsolete": 3},
         2: {"scout": (6, 2, 175), "tug": (4, 3, 200), "count": 10, "short": 8, "obsolete": 5},
         3: {"scout": (7, 3, 275), "tug": (5, 4, 325), "count": 6, "obsolete": 6},
         4: {"scout": (8, 4, 400), "tug": (6, 5, 450), "count": 5, "cutthroat": 4, "obsolete": None},
         5: {"scout": (9, 5, 550), "tug": (7, 6, 600), "count": 2, "obsolete": None},
         6: {"freighter": (9, 7, 950), "count": 9, "obsolete": None}}


@pytest.mark.parametrize("phase", sorted(SHIPS))
def test_each_phases_ships_have_the_charts_sides_prices_and_obsolescence(phase):
    row = SHIPS[phase]
    assert ships.kinds(phase) == tuple(kind for kind in ("scout", "tug", "freighter") if kind in row)
    for kind in ships.kinds(phase):
        movement, holds, cost = row[kind]
        assert ships.stats(phase, kind) == (movement, holds) and ships.price(phase, kind) == cost
    assert ships.obsolete_at(phase) == row["obsolete"]


@pytest.mark.parametrize("variant", [{}, {"variant": "short"}, {"cutthroat": True}])
def test_the_bank_holds_the_charts_cards_for_the_variant(variant):
    state = given(State(), *GAME.setup(PLAYERS[:4], variant, FairRng(b"charts")))
    in_box = Counter(ship.phase for sid, ship in state.ships.items() if sid != ships.PROBE)
    expected = {phase: row["count"] for phase, row in SHIPS.items()}
    if variant.get("variant") == "short":
        expected[2] = SHIPS[2]["short"]
    if variant.get("cutthroat"):
        expected[4] = SHIPS[4]["cutthroat"]
    assert in_box == expected
    probe = state.ships[ships.PROBE]
    assert (probe.owner, probe.movement, probe.holds, ships.obsolete_at(0)) == ("c:TSI", 4, 0, 2)


# Ships a holder may own, per phase: every corporation and independent; the Asteroid League one more from
# Phase III on (ASSUMED, as the independents' equal to the corporations': docs/t2038.md).
SHIP_LIMITS = {1: 4, 2: 4, 3: 3, 4: 3, 5: 3, 6: 2}
LEAGUE_SHIP_LIMITS = {1: 4, 2: 4, 3: 4, 4: 4, 5: 4, 6: 3}


@pytest.mark.parametrize("phase", sorted(SHIP_LIMITS))
def test_the_ship_limit_in_each_phase_is_the_charts(phase):
    state = given(set_up(4, "full"), ev.PhaseChanged(phase=phase))
    assert [ships.limit(state, holder) for holder in ("c:TSI", "c:RU", "i:1", "c:AL")] == \
        [SHIP_LIMITS[phase]] * 3 + [LEAGUE_SHIP_LIMITS[phase]]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_players_split_1800_evenly_and_the_bank_keeps_the_rest(players):
    # Setup step 3: $1,800 split evenly; the Full game's bank holds $10,000 in all, the Short game's $4,000.
    for variant, money in (("full", 10000), ("short", 4000)):
        state = set_up(players, variant)
        assert {state.cash(f"p:{player}") for player in PLAYERS[:players]} == {1800 // players}
        assert state.cash("bank") == money - 1800 // players * players
