"""The numbers of the rulebook's charts and cards as a table set up by the engine applies them, entry by
entry, so that a changed entry of the data file fails here (sources: docs/moon21.md; ASSUMED values
are named there)."""
from collections import Counter

import pytest

from moon21 import commands as K
from moon21 import events as E
from moon21.game import GAME
from moon21.board.geometry import TILES, tile_kind_for_hex
from moon21.board.lays import PHASE_COLOURS
from moon21.board.state import new_board, stop_value
from moon21.privates import un_choices
from moon21.rules import rules

from .conftest import default_minerals
from moon21.trading import cert_limit, holding_cap, pool_cap
from starbase_rules.contract import RuleViolation, fold
from starbase_rules.fair import FairRng

PLAYERS = ["ann", "bob", "cy", "dee", "eve", "fay"]
# per number of players: starting cash (ASSUMED), certificate limit and holding cap (rulebook 9.3)
BY_PLAYERS = {2: (600, 15, 60), 3: (540, 15, 50), 4: (410, 12, 50), 5: (340, 10, 50)}


def set_up(players: int, options=None):
    return fold(GAME, GAME.setup(PLAYERS[:players], options or {}, FairRng(b"charts")))


@pytest.mark.parametrize("players", sorted(BY_PLAYERS))
def test_a_table_starts_with_the_charts_cash_and_limits_for_its_size(players):
    cash, certificates, holding = BY_PLAYERS[players]
    state = set_up(players)
    assert {state.cash(f"p:{player}") for player in PLAYERS[:players]} == {cash}
    assert (cert_limit(state), holding_cap(state), pool_cap(state)) == (certificates, holding, 50)


def test_two_players_may_choose_the_alternative_limits():
    state = set_up(2, {"certificate_limit_2p": 18, "pool_cap_2p": 60})
    assert (cert_limit(state), pool_cap(state)) == (18, 60)


@pytest.mark.parametrize("players", [1, 6])
def test_two_to_five_play(players):
    with pytest.raises(RuleViolation) as refused:
        GAME.setup(PLAYERS[:players], {}, FairRng(b"charts"))
    assert refused.value.code == "BAD_PLAYER_COUNT"


# the privates a corporation may buy from a player: the least and the most it may pay (card texts, 6.1)
SALE_PRICES = {"P2": (1, 45), "P3": (1, 60), "P4": (1, 90), "P5": (1, 120), "P6": (1, 150)}


@pytest.mark.parametrize("private", sorted(SALE_PRICES))
def test_a_corporation_buys_a_private_within_its_cards_prices(table, private):
    t = table().stock_round().start("ann", "VH", 90, extra_shares=4)
    t.given(E.PrivateBought(player="bob", private=private, price=0), E.CorporationFloated(corp="VH"),
            E.RoundStarted(kind="OR", set_no=1, or_no=1), E.OperatingTurnStarted(corp="VH"))
    least, most = SALE_PRICES[private]
    for price in (least - 1, most + 1):
        assert t.refused("ann", K.AcquirePrivate(private=private, price=price)) == "ILLEGAL_PRICE"
    for price in (least, most):      # accepted: the owner is asked to consent at that price
        offered = GAME.decide(t.state, K.AcquirePrivate(private=private, price=price), "ann", None)
        assert [(e.type, getattr(e, "price", None)) for e in offered][:1] == [("DealProposed", price)]


@pytest.mark.parametrize("set_no, free", [(1, False), (2, True), (3, True), (4, True), (5, False)])
def test_the_tunnel_companys_free_share_is_taken_in_stock_rounds_2_to_4(table, set_no, free):
    t = table().stock_round().start("bob", "VH", 60).hand("p:bob", "VH", [1]).given(
        E.PrivateBought(player="ann", private="P6", price=100), E.SharesSold(seller="p:bob", certs=["VH_1"], price=60),
        E.RoundStarted(kind="SR", set_no=set_no))
    if free:
        t.do("ann", K.TakeTunnelShare(corp="VH"))
        assert t.state.shares.location["VH_1"] == "p:ann"
    else:
        assert t.refused("ann", K.TakeTunnelShare(corp="VH")) == "WRONG_ROUND"


def test_the_un_contract_adds_a_transport_of_type_3_to_6():
    assert [t for action, t in un_choices(set_up(3)) if action == "add"] == [3, 4, 5, 6]


# each corporation's depots after its local base, in the order they are placed (charters)
DEPOT_COSTS = {"SWP": [25, 50], "HMQ": [25, 50, 75, 100], "VH": [25, 50, 75], "ITC": [25, 50, 75, 100],
               "SSF": [25, 50], "LG": [25, 50, 75], "KR": [25, 50, 75, 100]}


def test_every_corporation_starts_with_its_charters_depots():
    state = set_up(3)
    assert {corp: state.corps[corp].depots_left for corp in DEPOT_COSTS} == DEPOT_COSTS


# what a mineral hex earns by the colour of its tile (the rulebook's mineral chart; two rows from the reference)
MINERAL_VALUES = {"Source-X": (20, 40, 60, 80), "Helium-3": (30, 40, 50, 60), "Regolith": (20, 20, 40, 50),
                  "Armalcolite": (40, 30, 30, 20), "Lithium": (10, 10, 10, 10)}
COLOURS = ("yellow", "green", "brown", "gray")


@pytest.mark.parametrize("mineral", sorted(MINERAL_VALUES))
def test_a_mineral_earns_the_charts_value_for_its_tiles_colour(mineral):
    board = new_board(default_minerals())
    hex_id = next(h for h, cube in board.minerals.items() if cube == mineral)
    for colour, value in zip(COLOURS, MINERAL_VALUES[mineral]):
        tile = next(name for name, spec in TILES.items()
                    if spec.kind == tile_kind_for_hex(hex_id) and spec.colour == colour)
        board.tiles[hex_id] = (tile, 0)
        assert stop_value(board, f"{hex_id}-0", phase="10", sp_value=0) == value


def test_the_setup_places_the_charts_cubes_one_per_mineral_hex():
    minerals = set_up(3).board.minerals
    assert sorted(minerals) == sorted(rules()["mineral_hexes"])
    assert Counter(minerals.values()) == {"Source-X": 3, "Helium-3": 4, "Regolith": 4, "Armalcolite": 4, "Lithium": 2}


def test_the_research_labs_marker_adds_20_to_its_hex():
    board = new_board(default_minerals())
    hex_id = next(iter(board.minerals))
    tile = next(name for name, spec in TILES.items() if spec.kind == tile_kind_for_hex(hex_id) and spec.colour == "yellow")
    board.tiles[hex_id] = (tile, 0)
    plain = stop_value(board, f"{hex_id}-0", phase="2", sp_value=0)
    board.research_marker = hex_id
    assert stop_value(board, f"{hex_id}-0", phase="2", sp_value=0) == plain + 20


# phase: the tile colours it allows and the transport type it removes (a phase starts with the first
# transport of its type, so every phase is named by one)
PHASES = {"2": (("yellow",), None), "3": (("yellow", "green"), None), "4": (("yellow", "green"), None),
          "5": (("yellow", "green", "brown"), 2), "6": (("yellow", "green", "brown"), 3),
          "10": (("yellow", "green", "brown", "gray"), 4)}


def test_the_phases_are_the_charts_and_named_by_their_transports():
    assert {name: (rules().phase_colors[name], rules().phase_removes[name]) for name in rules().phase_colors} == PHASES
    assert {name: colours for name, (colours, _) in PHASES.items()} == PHASE_COLOURS
    assert sorted(PHASES, key=int) == [str(t) for t in sorted(rules().transport_cost)]
