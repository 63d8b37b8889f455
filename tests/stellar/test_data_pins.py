"""The facts of the data files the other tests let change, each pinned through what the engine does.

Found by a data mutation sweep (+1 to each number) of corporations.yaml, powers.yaml, new_investor.yaml and
alpha_map.yaml; each expected value is copied from the rulebook or, for an ASSUMED one, from the reference
(docs/stellar.md names the rulings), never from the engine's output.
"""
import re

import pytest
from stellar_given import Table, of_type, started_table

from stellar import commands as c
from stellar import queries as q
from stellar.board import alpha
from stellar.flow import finish_liquidation
from stellar.game import GAME

GG, CE, PK, FR, SC, AM = ("gamboge_guild", "cerulean_council", "pink_inc", "frost_federated",
                          "scarlet_syndicate", "amethyst_agency")


# -- corporations.yaml ------------------------------------------------------------------------------

# Components: "120 x Outposts (25, 23, 21, 19, 17 and 15 across the six Corporations)", "28 x Corporation
# Shares (5 each for five Corporations, 3 for Amethyst Agency)"; which corporation has which count is
# ASSUMED (T). Home planets: ASSUMED (T), the Alpha map's printed home hexes.
CORPORATIONS = {CE: (25, 5, "1,2"), GG: (23, 5, "0,4"), PK: (21, 5, "3,0"), FR: (19, 5, "1,10"),
                SC: (17, 5, "9,1"), AM: (15, 3, None)}


@pytest.mark.parametrize("corp", sorted(CORPORATIONS))
def test_setup_gives_each_corporation_its_outposts_and_shares_and_one_outpost_on_its_home(corp):
    outposts, shares, home = CORPORATIONS[corp]
    view = GAME.view(Table().state, None)
    mine = [hex_key for hex_key, there in view["outposts"].items() if corp in there]
    # Setup step 9: one outpost of each starting corporation goes on its home planet; Amethyst waits for era 3.
    assert mine == ([home] if home else [])
    assert view["corporations"][corp]["supply"] == outposts - len(mine)
    assert view["corporations"][corp]["charter"] == shares


def test_the_turn_order_is_by_outposts_and_the_initial_auction_runs_it_backwards():
    # ASSUMED (D): the status area is ordered by outposts, most to fewest; the initial auction goes 5th to 1st.
    t = Table()
    [set_up] = of_type(t.events, "GameSetUp")
    assert set_up.auction_order == [SC, FR, PK, GG, CE]
    assert GAME.view(t.state, None)["turn_order"] == [CE, GG, PK, FR, SC]


def test_amethyst_chooses_its_home_among_the_three_printed_options():
    # ASSUMED (T): Amethyst's home options on Alpha are (15,0), (7,4) and (0,7).
    t = started_table()
    t.state.era = 2
    t.investor_step("shenanigans", seat=len(t.state.players) - 1, part="alien")
    t.do(t.state.clockwise_from(t.state.director)[-1], c.PassAlienAction())
    director = t.state.director
    t.do(director, c.Bid(amount=0))
    for player in t.state.auction.order[1:]:
        t.do(player, c.PassBid())
    assert t.state.pending[0].kind == "choose_home"
    assert sorted(t.state.pending[0].options) == sorted(["15,0", "7,4", "0,7"])
    t.do(director, c.ChooseHome(hex="15,0"))
    assert GAME.view(t.state, None)["corporations"][AM]["supply"] == 15 - 1


# -- powers.yaml ------------------------------------------------------------------------------------

@pytest.mark.parametrize("alien_lead, taken_over", [(4, False), (5, True)])
def test_accounting_gimmick_adds_exactly_5_to_the_takeover_check(alien_lead, taken_over):
    # Glossary: "this Corporation appears to have +5 Mining Capacity" during Hostile Takeover, which takes a
    # corporation whose capacity is less than or equal to the aliens'.
    t = started_table()
    t.power(FR, "accounting_gimmick")
    t.corp(FR).signed, t.corp(FR).agreement_planets = True, 2
    t.state.alien_mc = q.mining_capacity(t.state, FR) + alien_lead
    t.state.round = "liquidation"
    tx = GAME.tx(t.state)
    finish_liquidation(tx)
    assert [e.corp for e in of_type(tx.events, "HostileTakeover")] == ([FR] if taken_over else [])


@pytest.mark.parametrize("shares, status", [(3, "minor"), (4, "minor"), (5, "major")])
def test_stalled_ipo_makes_a_corporation_major_on_its_fifth_share(shares, status):
    # Glossary: Stalled IPO changes Minor to Major "not on 4th Share issued, but on the 5th Share instead".
    t = started_table()
    t.shares(GG, ann=shares - 1, bob=1, president="ann")
    t.power(GG, "stalled_ipo")
    assert GAME.view(t.state, None)["corporations"][GG]["status"] == status


# -- new_investor.yaml ------------------------------------------------------------------------------

# New Investor Setup, ASSUMED (T: read off the printed 3/4/5-player diagrams). Seats A, B, … are the players
# in order; each president holds one share; liquid funds are 120 / players less the treasuries paid.
# players: ({corporation: (seat, treasury, second power)}, liquid funds by seat)
NEW_INVESTOR = {
    3: ({CE: (0, 12, "hyperdrive"), PK: (0, 7, "alien_alchemist"), GG: (1, 13, "icarus_experiment"),
         FR: (1, 10, "ore_refinement"), SC: (2, 22, "leaked_research")}, [21, 17, 18]),
    4: ({CE: (0, 13, "hyperdrive"), PK: (0, 7, "alien_alchemist"), GG: (1, 13, "icarus_experiment"),
         FR: (2, 10, "ore_refinement"), SC: (3, 22, "leaked_research")}, [10, 17, 20, 8]),
    5: ({CE: (1, 13, "hyperdrive"), PK: (0, 7, "icarus_experiment"), GG: (2, 13, "alien_alchemist"),
         FR: (3, 10, "ore_refinement"), SC: (4, 16, "leaked_research")}, [17, 11, 11, 14, 8]),
}


@pytest.mark.parametrize("players", sorted(NEW_INVESTOR))
def test_new_investor_setup_deals_the_printed_diagram(players):
    corporations, funds = NEW_INVESTOR[players]
    names = ["ann", "bob", "cy", "dee", "eve"][:players]
    view = GAME.view(Table(tuple(names), {"new_investor_setup": True}).state, None)
    assert [view["investors"][name]["liquid"] for name in names] == funds
    for corp, (seat, treasury, power) in corporations.items():
        shown = view["corporations"][corp]
        assert (shown["president"], shown["holders"], shown["treasury"]) == (names[seat], {names[seat]: 1}, treasury)
        assert shown["powers"] == ["alien_explorers", power]


# -- alpha_map.yaml ---------------------------------------------------------------------------------

# The Alpha map, ASSUMED (T: transcribed from the printed board; reference map.hexes), row by row (r), each
# hex as <q><kind><value>: D deep space, N neutral planet, A alien planet, S Sun anomaly, X nebular anomaly,
# H home planet, M one of Mega-Earth's three printed hexes. Cells not listed are off the map.
ALPHA = {
    0: "2D 3H1 4S 5N3 6A 7D 10D 11D 12N2 13D 14N4 15H2",
    1: "1A 2D 3D 4S 5D 6D 7N2 9H1 10D 11X 12D 13D 14D 15D",
    2: "0D 1H1 2N1 3D 4N2 5D 6D 7N1 8D 9X 10X 11X 12N2 13D 14D 15A",
    3: "-1N1 0D 1N2 2D 3D 4D 5N1 6D 7X 8X 9N1 10D 11D 12D 13D 14N2 15N3",
    4: "-2D -1D 0H1 1D 2N2 3N3 4S 5D 6D 7H2 8D 9D 10N3 11N3 12D 13D 14D 15D",
    5: "-3N2 -2D -1D 0D 1D 2D 3D 4A 5S 6N3 7D 8N4 9D 10D 11D 12N3 13D 14N3 15D",
    6: "-3A -2D -1N2 0N3 1D 2D 3N2 4D 5D 6S 7N3 8D 9D 10N4 11D 12X 13D 14D",
    7: "-3N2 -2D -1D 0H2 1D 2D 3D 4S 5D 6D 7D 8D 9N2 10X 11X 12D 13D",
    8: "-3N3 -2D -1S 0D 1N3 2D 3D 4S 5D 6D 7N4 8D 9D 10X 11M 12M",
    9: "-3D -2D -1N1 0D 1D 2D 3N1 5N3 6D 7N3 8S 9D 10D 11M",
    10: "-3A -2D -1N2 0N1 1H1 2D 5A 6D 7D 8D 9D 10D",
}
HOMES = {"3,0": PK, "9,1": SC, "1,2": CE, "0,4": GG, "1,10": FR, "15,0": AM, "7,4": AM, "0,7": AM}


def _capacity_from(state, corp, hex_key):
    """The mining capacity `corp` has from one outpost on `hex_key` alone."""
    state.outposts = {hex_key: [corp]}
    capacity = q.mining_capacity(state, corp)
    state.outposts = {}
    return capacity


def _what_the_engine_makes_of(t, hex_key):
    """The hex as the rules treat it, in ALPHA's notation (None: not on the map), asked of power-less
    corporations: who may build there, what stops the others, what an outpost there is worth."""
    for corp in CORPORATIONS:
        t.power(corp)
    t.state.outposts = {}
    refusals = {corp: q.placement_refusal(t.state, corp, hex_key) for corp in CORPORATIONS}
    codes = {refusal[0] for refusal in refusals.values() if refusal}
    if codes == {"UNKNOWN_HEX"}:
        return None
    if "HOME_PLANET_RESERVED" in codes:
        [owner] = [corp for corp, refusal in refusals.items() if refusal is None]
        return f"H{_capacity_from(t.state, owner, hex_key)}", owner
    if codes == {"ANOMALY"}:
        t.power(GG, "icarus_experiment")                # Icarus Experiment opens Sun anomalies only
        return "S" if q.placement_refusal(t.state, GG, hex_key) is None else "X"
    if codes == {"ALIEN_PLANET_FORBIDDEN"}:
        return "A"
    assert not codes, codes
    value = _capacity_from(t.state, GG, hex_key)
    return f"N{value}" if value else "D"


@pytest.mark.parametrize("r", sorted(ALPHA))
def test_every_hex_of_the_alpha_map_is_where_the_printed_board_has_it(r):
    t = Table()
    expected = {}
    for token in ALPHA[r].split():
        column, kind = re.fullmatch(r"(-?\d+)(\w+)", token).groups()
        column = int(column)
        if kind != "M":                                  # Mega-Earth's cells are one logical hex, below
            expected[f"{column},{r}"] = (kind, HOMES[f"{column},{r}"]) if kind[0] == "H" else kind
    seen = {}
    for column in range(-5, 18):                         # a margin around the board: nothing is there
        found = _what_the_engine_makes_of(t, f"{column},{r}")
        if found is not None:
            seen[f"{column},{r}"] = found
    assert seen == expected


def _adjacent_to(t, corp, hex_key):
    """Every hex on which `corp`, with its one outpost on `hex_key`, may expand (adjacent to its network)."""
    t.state.outposts = {hex_key: [corp]}
    return {h for h in alpha().hexes if h != hex_key and q.is_adjacent_to_network(t.state, corp, h)}


def test_a_hex_touches_the_six_hexes_around_it():
    # Axial coordinates (reference map.neighbors): (q+1, r), (q+1, r-1), (q, r-1), (q-1, r), (q-1, r+1), (q, r+1).
    assert _adjacent_to(Table(), GG, "5,2") == {"6,2", "6,1", "5,1", "4,2", "4,3", "5,3"}


def test_mega_earth_is_one_hex_touching_what_its_three_printed_hexes_touch():
    # Mega-Earth spans (11,8), (12,8) and (11,9) but "is treated as a single hex" (rulebook, Mega-Earth).
    t = Table()
    assert _adjacent_to(t, GG, "mega_earth") == {"11,7", "12,7", "13,7", "10,8", "10,9", "10,10"}
    assert "mega_earth" in _adjacent_to(t, GG, "13,7")
