"""The rulebook's worked examples, played through the engine on the (assumed) Alpha map."""
from stellar_given import Table, of_type, started_table, types

from stellar import commands as c
from stellar import queries as q
from stellar.flow import finish_liquidation
from stellar.game import GAME

GG, CE, PK, FR, SC = "gamboge_guild", "cerulean_council", "pink_inc", "frost_federated", "scarlet_syndicate"


def test_gamboge_guild_expands_four_outposts_for_9_and_gains_8_mining_capacity():
    t = started_table()
    t.outpost(GG, "1,4", "0,3", "0,5")
    t.outpost(CE, "1,3", "3,5", "4,5")
    t.outpost(PK, "1,3")
    t.outpost(FR, "0,6")
    t.power(GG, "alien_explorers")
    t.corporation_turn(GG, "build")
    t.treasury(GG, 9)
    before = q.mining_capacity(t.state, GG)
    t.do("bob", c.BeginExpansion())
    for hex_key in ("2,4", "3,4", "0,6", "3,5"):        # A, B, C (another part of the network), D
        t.do("bob", c.PlaceOutpost(hex=hex_key))
    t.refused("bob", c.PlaceOutpost(hex="4,4"), "ANOMALY")               # E1 the Sun
    t.refused("bob", c.PlaceOutpost(hex="1,3"), "HEX_FULL")              # E2 two outposts already
    t.refused("bob", c.PlaceOutpost(hex="1,2"), "HOME_PLANET_RESERVED")  # E3 Cerulean's home
    assert q.placement_refusal(t.state, GG, "4,5") is None               # E4 allowed by Alien Explorers
    assert q.penalty_for(t.state, GG, "4,5", "expand") == 1             # … with a placement penalty
    events = t.do("bob", c.FinishBuilding())
    assert of_type(events, "BuildFinished")[0].cost == 9
    assert t.state.ledger.balance("corp:" + GG) == 0
    assert q.mining_capacity(t.state, GG) - before == 8


def test_cerulean_council_wormhole_to_mega_earth_costs_9_and_lifts_mega_earth_from_9_to_12():
    t = started_table()
    t.outpost(CE, "7,8")
    t.outpost(FR, "mega_earth")
    t.outpost(SC, "mega_earth")
    t.corp(CE).wormhole = True
    t.corporation_turn(CE, "build")
    t.treasury(CE, 9)
    mc = {corp: q.mining_capacity(t.state, corp) for corp in (CE, FR, SC)}
    assert q.planet_value(t.state, "mega_earth") == 9
    events = t.do("ann", c.CreateWormhole(hex="mega_earth"))
    assert of_type(events, "BuildFinished")[0].cost == 9                 # 3 skipped + 4 + 2 penalty
    assert q.planet_value(t.state, "mega_earth") == 12
    assert q.mining_capacity(t.state, CE) - mc[CE] == 12
    assert q.mining_capacity(t.state, FR) - mc[FR] == 3
    assert q.mining_capacity(t.state, SC) - mc[SC] == 3


def test_frost_federated_minor_pays_10_a_share_by_its_cargo_row():
    t = Table(("lydia", "jordan", "sam"), {"new_investor_setup": True})
    t.shares(FR, lydia=1, jordan=1, aliens=1)
    t.power(FR, "alien_explorers")
    t.outpost(FR, "14,0", "8,5", "10,6", "7,8", "5,0", "3,4", "10,4", "11,4", "6,5", "12,5")
    t.corp(FR).cargo = 10
    assert q.mining_capacity(t.state, FR) == 35 and q.status(t.corp(FR)) == "minor"
    t.corporation_turn(FR, "build")
    events = t.do("lydia", c.SkipBuilding())
    paid = of_type(events, "DividendPaid")[0]
    assert (paid.row, paid.per_share) == (10, 10)
    moves = [(m.destination, m.amount) for m in of_type(events, "CashMoved")]
    assert moves == [("frozen:jordan", 10), ("frozen:lydia", 10)]


def test_first_level_3_ship_flips_a_2_chevron_tile_and_scraps_level_1_ships():
    t = started_table()
    t.empty_section(1)
    t.ship(GG, 1)
    t.empty_section(2)
    t.ship(GG, 2)
    t.state.shipyard_tiles[3] = 2
    t.state.alien_mc = 25
    t.treasury(GG, 6)
    t.corporation_turn(GG, "ships")
    assert t.corp(GG).cargo == 3
    events = t.do("bob", c.OrderShip())
    assert types(events)[:4] == ["ShipOrdered", "CashMoved", "SectionOpened", "ShipyardTileRevealed"]
    assert t.state.alien_mc == 31
    assert of_type(events, "ShipsScrapped")[0].level == 1
    assert t.corp(GG).cargo == 2 and t.corp(GG).delivered == [2]
    t.do("bob", c.OrderShip())                                           # the freed column is refilled
    assert t.corp(GG).ordered == [3, 3]
    assert t.state.ledger.balance("corp:" + GG) == 0                     # 6 for two level-3 ships


def test_pink_inc_signs_on_its_third_alien_planet_aliens_31_to_37_and_9_a_share():
    t = Table(("angelika", "bob", "cy"), {"new_investor_setup": True})
    t.shares(PK, angelika=2, bob=1)
    t.outpost(PK, "1,1", "4,5", "5,0")
    t.state.alien_tiles["6,0"] = 2
    t.state.alien_mc = 31
    t.corporation_turn(PK, "build")
    t.treasury(PK, 5)
    t.do("angelika", c.BeginExpansion())
    events = t.do("angelika", c.PlaceOutpost(hex="6,0"))
    assert of_type(events, "TechnologyGained")[0].player == "angelika"
    assert t.state.pending[0].kind == "sign_offer"
    events = t.do("angelika", c.SignAgreement())
    assert types(events)[:3] == ["DecisionMade", "CashMoved", "BuildFinished"]   # costs paid first
    signed = of_type(events, "AgreementSigned")[0]
    assert (signed.chevrons, signed.alien_planets) == (2, 3)
    assert t.state.alien_mc == 37
    assert t.corp(PK).aliens == 1 and "alien_explorers" not in t.corp(PK).powers
    bonus = [(m.destination, m.amount) for m in of_type(events, "CashMoved") if m.reason.startswith("agreement")]
    assert bonus == [("frozen:angelika", 18), ("frozen:bob", 9)]
    assert t.state.pending[0].kind == "draft_power"
    t.refused("angelika", c.PlaceOutpost(hex="5,1"), "DECISION_PENDING")   # the action is over


def _frost_at_liquidation(alien_mc):
    t = Table(("ann", "bob", "cy"), {"new_investor_setup": True})
    t.shares(FR, ann=2, bob=1, aliens=1)
    t.power(FR)
    t.corp(FR).signed, t.corp(FR).agreement_planets = True, 3
    t.outpost(FR, "14,0", "8,5", "10,6", "7,8", "5,0", "3,4", "10,4", "11,4", "6,5", "12,5", "12,0", "7,1", "2,2")
    for level in (5, 5, 8):
        t.ship(FR, level)
    t.corp(FR).supply -= 1
    t.corp(FR).loans = 1
    t.state.alien_mc = alien_mc
    t.state.round, t.state.era = "liquidation", 5
    return t


def test_liquidation_example_frost_federated_is_worth_17_a_share():
    t = _frost_at_liquidation(39)
    assert q.mining_capacity(t.state, FR) == 40 and t.corp(FR).cargo == 13
    ctx = GAME.tx(t.state)
    finish_liquidation(ctx)
    assert "HostileTakeover" not in types(ctx.events)
    assert of_type(ctx.events, "LiquidationCompleted")[0].share_values[FR] == 17
    paid = [(m.destination, m.amount) for m in of_type(ctx.events, "CashMoved") if m.reason == f"liquidation {FR}"]
    assert paid == [("liquid:ann", 34), ("liquid:bob", 17)]


def test_hostile_takeover_when_mining_capacity_does_not_exceed_the_aliens():
    t = _frost_at_liquidation(40)
    ctx = GAME.tx(t.state)
    finish_liquidation(ctx)
    assert of_type(ctx.events, "HostileTakeover")[0].corp == FR
    assert of_type(ctx.events, "LiquidationCompleted")[0].share_values[FR] == 1


def test_alien_capacity_passes_40_as_a_plain_number():
    t = started_table()
    t.state.alien_mc = 37
    t.state.shipyard_tiles[2] = 1
    t.empty_section(1)
    t.state.opened_sections.remove(1)
    t.state.opened_sections.append(1)
    t.corporation_turn(CE, "ships")
    t.do("ann", c.OrderShip())
    assert t.state.alien_mc == 40
