"""The charts the rulebook leaves to graphics, as a corporation's turn pays them, entry by entry.

The values are ASSUMED from the public implementation (docs/stellar.md); every entry is pinned so that a
changed one in the data file fails here, not only the few the worked examples reach.
"""
from collections import Counter

import pytest
from stellar_given import Table, of_type

from stellar import commands as c
from stellar import queries as q
from stellar.facts import tables

FR = "frost_federated"
# credits per share by dividend row, for a private / minor / major corporation
DIVIDENDS = {0: (2, 1, 1), 1: (2, 1, 1), 2: (4, 2, 1), 3: (6, 3, 2), 4: (8, 4, 2), 5: (10, 5, 3),
             6: (12, 6, 3), 7: (14, 7, 4), 8: (16, 8, 4), 9: (18, 9, 5), 10: (20, 10, 5),
             11: (22, 11, 6), 12: (24, 12, 6), 13: (26, 13, 7)}
HOLDERS = {"private": {"lydia": 1}, "minor": {"lydia": 1, "jordan": 1}, "major": {"lydia": 2, "jordan": 2}}


def dividend_paid(row: int, status: str, **options):
    t = Table(("lydia", "jordan", "sam"), {"new_investor_setup": True, **options})
    t.shares(FR, president="lydia", **HOLDERS[status])
    t.corp(FR).agents_bonus = 40            # mining capacity far above the cargo: the row is the cargo's
    t.corp(FR).cargo = row
    assert q.status(t.corp(FR)) == status
    t.corporation_turn(FR, "build")
    return of_type(t.do("lydia", c.SkipBuilding()), "DividendPaid")


@pytest.mark.parametrize("row", sorted(DIVIDENDS))
@pytest.mark.parametrize("status", ["private", "minor", "major"])
def test_a_corporation_pays_the_dividend_charts_entry_for_its_row_and_status(row, status):
    [paid] = dividend_paid(row, status)
    assert (paid.row, paid.per_share) == (row, DIVIDENDS[row][("private", "minor", "major").index(status)])


def test_row_zero_pays_nothing_when_the_table_says_so():
    [paid] = dividend_paid(0, "minor", row_zero_pays=False)
    assert (paid.row, paid.per_share) == (0, 0)


def test_the_shipyard_opens_with_the_charts_sections():
    # level: (ships in the box, -1 unlimited; an alien tile on it; the level its first ship scraps)
    chart = {1: (9, False, None), 2: (7, True, None), 3: (9, True, 1), 5: (5, True, 2), 8: (-1, False, 3)}
    state = Table().state
    assert state.shipyard == {level: ships for level, (ships, _, _) in chart.items()}
    assert sorted(state.shipyard_tiles) == [level for level, (_, tile, _) in chart.items() if tile]
    assert {level: tables().section(level).scraps_level for level in chart} == \
        {level: scraps for level, (_, _, scraps) in chart.items()}


@pytest.mark.parametrize("players, funds", [(3, 40), (4, 30), (5, 24)])
def test_each_investor_starts_with_the_charts_funds_one_cube_and_six_votes(players, funds):
    names = ["ann", "bob", "cy", "dee", "eve"][:players]
    state = Table(tuple(names)).state
    assert {state.ledger.balance(f"liquid:{name}") for name in names} == {funds}
    assert {(state.investors[name].cubes, state.investors[name].votes) for name in names} == {(1, 6)}


def test_eleven_powers_are_dealt_six_of_them_face_up():
    state = Table().state
    assert (len(state.powers_row), len(state.powers_pile)) == (6, 5)


def test_seeded_deals_use_the_charts_tiles():
    # Shipyard tiles (chevrons 3, 2, 1, 1, 0): three dealt to levels 2, 3 and 5. Agreement tiles (0, 1, 1, 1,
    # 2, 2, 2, 2, 3, 4): one per alien planet, the rest boxed. Over many seeds every tile shows up.
    yard_seen, agreement_seen = set(), set()
    for seed in range(40):
        state = Table(seed=f"charts{seed}".encode()).state
        yard = sorted(state.shipyard_tiles.values())
        assert len(yard) == 3 and not Counter(yard) - Counter([3, 2, 1, 1, 0])
        yard_seen |= set(yard)
        assert sorted([*state.alien_tiles.values(), *state.boxed_tiles]) == [0, 1, 1, 1, 2, 2, 2, 2, 3, 4]
        agreement_seen |= set(state.alien_tiles.values())
    assert yard_seen == {0, 1, 2, 3} and agreement_seen == {0, 1, 2, 3, 4}


@pytest.mark.parametrize("cubes, credits", [(1, 2), (2, 5)])
def test_laundering_pays_the_charts_credits(cubes, credits):
    t = Table(("ann", "bob", "cy"), {"new_investor_setup": True, "starting_cubes": 2})
    t.investor_step("shenanigans", part="alien")
    player = t.state.director
    before = t.state.ledger.balance(f"liquid:{player}")
    t.do(player, c.Launder(cubes=cubes))
    assert t.state.ledger.balance(f"liquid:{player}") == before + credits


# The Agreement's track: per alien planets held at signing, the bonus dividend per share then, and the
# share value it adds at the end (5+: five or more).
AGREEMENT_TRACK = {2: (6, 3), 3: (9, 6), 4: (11, 9), 5: (12, 15), 6: (12, 15)}


@pytest.mark.parametrize("planets", sorted(AGREEMENT_TRACK))
def test_the_agreement_track_pays_the_charts_bonus_and_adds_its_share_value(planets):
    assert tables().track_section(planets)[1:] == AGREEMENT_TRACK[planets]
    t = Table(("lydia", "jordan", "sam"), {"new_investor_setup": True})
    t.shares(FR, president="lydia", lydia=1, jordan=1, aliens=1)
    t.corp(FR).signed = False
    unsigned = q.share_value(t.state, FR)
    t.corp(FR).signed, t.corp(FR).agreement_planets = True, planets
    assert q.share_value(t.state, FR) == unsigned + AGREEMENT_TRACK[planets][1]


@pytest.mark.parametrize("planets", [0, 1])
def test_signing_below_the_tracks_first_section_counts_as_the_first(planets):
    # Only a table that lowers signing_min_alien_planets gets here (ruling G-AGR-9): before, this raised.
    assert tables().track_section(planets) == (2, *AGREEMENT_TRACK[2])


def test_a_table_signing_on_its_first_alien_planet_pays_the_first_sections_bonus():
    t = Table(("angelika", "bob", "cy"), {"new_investor_setup": True, "signing_min_alien_planets": 1})
    t.shares("pink_inc", angelika=2, bob=1)
    t.outpost("pink_inc", "5,0")
    t.state.alien_tiles["6,0"] = 2
    t.corporation_turn("pink_inc", "build")
    t.treasury("pink_inc", 5)
    t.do("angelika", c.BeginExpansion())
    t.do("angelika", c.PlaceOutpost(hex="6,0"))
    assert q.alien_planets_of(t.state, "pink_inc") == 1 and t.state.pending[0].kind == "sign_offer"
    events = t.do("angelika", c.SignAgreement())
    bonus = [(m.destination, m.amount) for m in of_type(events, "CashMoved") if m.reason.startswith("agreement")]
    assert bonus == [("frozen:angelika", 12), ("frozen:bob", 6)]
