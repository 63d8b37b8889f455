"""The invariants checked after every event catch each kind of lost or duplicated piece."""
import pytest
from stellar_given import started_table

from stellar.board import MEGA_EARTH
from stellar.game import GAME

GG, CE, PK, FR, SC, AM = ("gamboge_guild", "cerulean_council", "pink_inc", "frost_federated",
                          "scarlet_syndicate", "amethyst_agency")


def _money_created(s):
    s.ledger.cash["liquid:ann"] += 1


def _share_lost(s):
    s.corps[GG].charter -= 1


def _president_without_most_shares(s):
    s.corps[GG].holders["ann"] = 2
    s.corps[GG].charter -= 2


def _alien_share_without_signing(s):
    s.corps[GG].aliens, s.corps[GG].charter = 1, s.corps[GG].charter - 1


def _outpost_duplicated(s):
    s.outposts.setdefault("5,0", []).append(GG)


def _outpost_on_another_home(s):
    s.outposts["1,2"].append(GG)
    s.corps[GG].supply -= 1


def _mega_box_lost(s):
    s.outposts[MEGA_EARTH] = [GG]
    s.corps[GG].supply -= 1


def _cube_lost(s):
    s.cube_supply -= 1


def _vote_lost(s):
    s.investors["ann"].votes -= 1


def _ship_duplicated(s):
    s.corps[GG].delivered.append(1)


def _agreement_tile_lost(s):
    s.alien_tiles.popitem()


def _shipyard_tile_lost(s):
    s.shipyard_tiles.pop(2)


def _power_in_two_places(s):
    s.corps[GG].powers.append(s.powers_row[0])


def _cargo_over_13(s):
    s.corps[GG].cargo = 14


BREAKS = {
    "money not conserved": _money_created, "shares do not add up": _share_lost,
    "president does not hold the most": _president_without_most_shares,
    "alien shares": _alien_share_without_signing, "outposts do not add up": _outpost_duplicated,
    "home planet": _outpost_on_another_home, "Mega-Earth boxes": _mega_box_lost,
    "alien technology cubes": _cube_lost, "boardroom votes": _vote_lost,
    "level-1 ships": _ship_duplicated, "agreement tiles": _agreement_tile_lost,
    "shipyard tile": _shipyard_tile_lost, "power is in two places": _power_in_two_places,
    "CARGO": _cargo_over_13,
}


def test_a_started_game_keeps_every_invariant():
    assert GAME.invariants(started_table().state) == []


@pytest.mark.parametrize("problem", sorted(BREAKS))
def test_each_broken_invariant_is_reported(problem):
    t = started_table()
    BREAKS[problem](t.state)
    found = GAME.invariants(t.state)
    assert any(problem in text for text in found), found
