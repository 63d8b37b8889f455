"""Outpost costs and limits, Mega-Earth, Develop Planets, CARGO limits and signing during Private Contractor."""
import pytest
from stellar_given import of_type, started_table

from stellar import commands as c
from stellar import queries as q

GG, CE, PK, FR, SC, AM = ("gamboge_guild", "cerulean_council", "pink_inc", "frost_federated",
                          "scarlet_syndicate", "amethyst_agency")


@pytest.mark.parametrize("count, cost", [(1, 1), (2, 2), (3, 4), (4, 7), (5, 10)])
def test_expand_network_costs_1_2_4_7_10(count, cost):
    t = started_table()
    t.corporation_turn(GG, "build")
    t.treasury(GG, 10)
    t.do("bob", c.BeginExpansion())
    chain = ["1,4", "2,4", "3,4", "3,3", "4,3"][:count]
    events = []
    for hex_key in chain:
        events += t.do("bob", c.PlaceOutpost(hex=hex_key))
    if count < 5:
        events += t.do("bob", c.FinishBuilding())
    assert of_type(events, "BuildFinished")[0].cost == cost      # the fifth closes the action by itself
    assert t.state.corp_turn.step == "ships"


def test_a_build_stops_where_the_treasury_cannot_cover_the_next_outpost():
    t = started_table()
    t.corporation_turn(GG, "build")
    t.treasury(GG, 3)
    t.do("bob", c.BeginExpansion())
    t.do("bob", c.PlaceOutpost(hex="1,4"))
    t.do("bob", c.PlaceOutpost(hex="2,4"))
    t.refused("bob", c.PlaceOutpost(hex="3,4"), "INSUFFICIENT_FUNDS")   # 3 outposts cost 4


def test_mega_earth_takes_four_corporations_and_rises_6_9_12_15():
    t = started_table()
    values = []
    for corp in (CE, GG, PK, FR):
        t.outpost(corp, "mega_earth")
        values.append(q.planet_value(t.state, "mega_earth"))
    assert values == [6, 9, 12, 15]
    assert q.placement_refusal(t.state, SC, "mega_earth")[0] == "HEX_FULL"


def test_develop_planets_doubles_a_planet_for_every_corporation_there():
    t = started_table()
    t.outpost(GG, "3,4")
    t.outpost(CE, "3,4")
    before = {corp: q.mining_capacity(t.state, corp) for corp in (GG, CE)}
    t.investor_step("shenanigans", part="alien")
    t.do(t.state.director, c.DevelopPlanets(hexes=["3,4"]))
    assert {corp: q.mining_capacity(t.state, corp) - before[corp] for corp in (GG, CE)} == {GG: 3, CE: 3}


def test_delivered_cargo_is_capped_at_13():
    t = started_table()
    for level in (5, 8):
        t.ship(GG, level)
    t.ship(GG, 3, delivered=False)
    director = t.state.director
    t.investor_step("shenanigans", seat=len(t.state.players) - 1, part="alien")
    t.do(t.state.clockwise_from(director)[-1], c.PassAlienAction())     # administration delivers
    assert t.corp(GG).delivered == [5, 8, 3] and t.corp(GG).cargo == 13


def test_scrapping_subtracts_from_the_capped_cargo():
    t = started_table()
    for level in (1, 5, 8):                              # 14 delivered, capped at 13
        t.ship(GG, level)
    t.empty_section(1)
    t.empty_section(2)
    t.corporation_turn(CE, "ships")
    t.treasury(CE, 3)
    t.do("ann", c.OrderShip())                          # the first level 3 scraps level 1
    assert t.corp(GG).cargo == 12 and t.corp(GG).delivered == [5, 8]


def test_contractor_building_on_a_signable_planet_asks_the_president_not_the_builder():
    t = started_table()
    t.shares(PK, ann=2, bob=1, president="ann")
    t.outpost(PK, "1,1", "4,5", "5,0")
    t.state.alien_tiles["6,0"] = 1
    t.investor_step("shenanigans")
    t.state.director = "bob"
    t.liquid("bob", 5)
    t.do("bob", c.HireContractor(corp=PK))
    events = t.do("bob", c.PlaceOutpost(hex="6,0"))
    assert of_type(events, "TechnologyGained")[0].player == "bob"
    assert t.state.pending[0].kind == "sign_offer" and t.state.pending[0].player == "ann"
    t.refused("bob", c.FinishBuilding(), "DECISION_PENDING")
    t.do("ann", c.SignAgreement())
    assert t.state.ledger.balance("liquid:bob") == 4 and t.corp(PK).signed
    assert t.state.inv.part == "alien"


def test_the_raw_distance_wormhole_option_charges_one_more():
    t = started_table()
    plain = q.wormhole_cost(t.state, CE, "5,0")
    t.state.options.wormhole_skip_is_distance_minus_one = False
    assert q.wormhole_cost(t.state, CE, "5,0") == plain + 1


def test_an_adjacent_wormhole_costs_4():
    t = started_table()
    assert q.wormhole_cost(t.state, CE, "2,2") == 4
