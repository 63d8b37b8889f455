"""Each corporate power of the glossary: given a corporation holding it, when its timing comes, then…"""
from stellar_given import Table, of_type, started_table, types

from stellar import commands as c
from stellar import queries as q
from stellar.flow import finish_liquidation
from stellar.game import GAME

GG, CE, PK, FR, SC, AM = ("gamboge_guild", "cerulean_council", "pink_inc", "frost_federated",
                          "scarlet_syndicate", "amethyst_agency")


def test_accounting_gimmick_avoids_takeover_without_raising_share_value():
    t = started_table()
    t.power(FR, "accounting_gimmick")
    t.corp(FR).signed, t.corp(FR).agreement_planets = True, 2
    t.state.alien_mc = q.mining_capacity(t.state, FR) + 4
    t.state.round = "liquidation"
    ctx = GAME.tx(t.state)
    finish_liquidation(ctx)
    assert "HostileTakeover" not in types(ctx.events)
    assert of_type(ctx.events, "LiquidationCompleted")[0].share_values[FR] == q.share_value(t.state, FR)


def test_alien_alchemist_boxes_two_outposts_for_one_cube_once_a_round():
    t = started_table()
    t.power(PK, "alien_explorers", "alien_alchemist")
    t.corporation_turn(PK)
    supply, cubes = t.corp(PK).supply, t.state.investors["ann"].cubes
    t.do("ann", c.UseAlienAlchemist(corp=PK))
    assert t.corp(PK).supply == supply - 2 and t.corp(PK).boxed == 2
    assert t.state.investors["ann"].cubes == cubes + 1
    t.refused("ann", c.UseAlienAlchemist(corp=PK), "POWER_ALREADY_USED")


def test_alien_engineering_reclaims_charter_cubes_and_loses_boost_and_wormhole():
    t = started_table()
    t.power(CE, "alien_engineering")
    t.investor_step("shenanigans")
    t.state.cube_supply -= 3
    t.corp(CE).boost_cubes, t.corp(CE).cargo = 2, 2
    t.corp(CE).wormhole = t.corp(CE).wormhole_cube = True
    cubes = t.state.investors["ann"].cubes
    t.do("ann", c.ReclaimCubes(corp=CE))
    assert t.state.investors["ann"].cubes == cubes + 3
    assert (t.corp(CE).cargo, t.corp(CE).wormhole) == (0, False)


def test_alien_engineering_may_reclaim_any_number_of_the_cubes():
    """Glossary: "may reclaim any number of Technology cubes": one boost cube, keeping the wormhole."""
    t = started_table()
    t.power(CE, "alien_engineering")
    t.investor_step("shenanigans")
    t.state.cube_supply -= 3
    t.corp(CE).boost_cubes, t.corp(CE).cargo = 2, 5
    t.corp(CE).wormhole = t.corp(CE).wormhole_cube = True
    cubes = t.state.investors["ann"].cubes
    t.do("ann", c.ReclaimCubes(corp=CE, boost_cubes=1, wormhole=False))
    assert t.state.investors["ann"].cubes == cubes + 1
    assert (t.corp(CE).boost_cubes, t.corp(CE).cargo, t.corp(CE).wormhole) == (1, 4, True)
    t.refused("ann", c.ReclaimCubes(corp=CE, boost_cubes=2), "NO_TECHNOLOGY")
    t.refused("ann", c.ReclaimCubes(corp=CE, boost_cubes=0, wormhole=False), "NO_TECHNOLOGY")


def test_backroom_deal_moves_the_aliens_one_row_before_takeover():
    t = started_table()
    t.power(SC, "backroom_deal")
    t.state.alien_mc = 10
    t.state.pending = []
    t.state.era = 5
    t.corporation_turn(SC, "ships")
    t.state.corp_index = len(t.state.turn_order) - 1
    t.treasury(SC, 0)
    t.do("cy", c.FinishOrdering())
    assert t.state.pending[0].kind == "backroom_deal"
    events = t.do("cy", c.BackroomDeal(direction="down"))
    assert of_type(events, "AlienCapacityShifted")[0].amount == -3
    assert t.state.round == "over"


def test_cloaking_devices_ignore_the_cap_and_penalties_on_deep_space():
    t = started_table()
    t.power(GG, "cloaking_devices")
    t.outpost(GG, "0,5")
    t.outpost(CE, "1,5")
    t.outpost(PK, "1,5")
    assert q.placement_refusal(t.state, GG, "1,5") is None
    assert q.penalty_for(t.state, GG, "1,5", "expand") == 0
    t.power(GG, "alien_explorers")
    assert q.placement_refusal(t.state, GG, "1,5")[0] == "HEX_FULL"


def test_deep_space_pirates_copy_another_mining_capacity_row_once():
    t = started_table()
    t.power(CE, "deep_space_pirates")
    t.outpost(GG, "14,0", "8,5")
    t.corp(CE).cargo = 13
    t.corporation_turn(CE, "dividend")
    events = t.do("ann", c.PayDividend(copy_mc_from=GG))
    assert of_type(events, "DividendPaid")[0].row == q.mc_row(q.mining_capacity(t.state, GG))
    assert "deep_space_pirates" not in t.corp(CE).powers


def test_deep_space_smuggling_copies_another_cargo_row_once():
    t = started_table()
    t.power(CE, "deep_space_smuggling")
    t.corp(GG).cargo = 1
    t.outpost(CE, "14,0")
    t.corporation_turn(CE, "dividend")
    t.refused("ann", c.PayDividend(copy_mc_from=GG), "POWER_NOT_ACTIVE")
    events = t.do("ann", c.PayDividend(copy_cargo_from=GG))
    assert of_type(events, "DividendPaid")[0].row == 1
    assert "deep_space_smuggling" not in t.corp(CE).powers


def test_dismantling_outposts_returns_a_deep_space_outpost_for_1():
    t = started_table()
    t.power(GG, "dismantling_outposts")
    t.outpost(GG, "0,5")
    t.corporation_turn(GG)
    t.treasury(GG, 3)
    t.refused("bob", c.DismantleOutpost(corp=GG, hex="0,4"), "NOT_DISMANTLABLE")
    t.do("bob", c.DismantleOutpost(corp=GG, hex="0,5"))
    assert GG not in t.state.outposts.get("0,5", []) and t.state.ledger.balance("corp:" + GG) == 2
    t.refused("bob", c.DismantleOutpost(corp=GG, hex="0,5"), "POWER_ALREADY_USED")


def test_fine_print_shields_the_corporation_from_this_boardroom_battle():
    t = started_table()
    t.power(GG, "fine_print")
    t.corporation_turn(SC, "ships")               # the round's last corporation ends its turn
    t.do("cy", c.FinishOrdering())
    assert t.state.pending[0].kind == "fine_print" and t.state.pending[0].player == "bob"
    t.do("bob", c.UseFinePrint(use=True))
    assert GG in t.state.inv.shielded and "fine_print" not in t.corp(GG).powers
    voter = t.state.director
    t.refused(voter, c.PlaceVotes(corp=GG, count=1), "NOT_A_BATTLE_TARGET")


def test_hyperdrive_adds_one_cargo_when_gained():
    t = started_table()                          # Cerulean receives Hyperdrive in New Investor Setup
    assert t.corp(CE).cargo == 1 and "hyperdrive" in t.corp(CE).powers


def test_icarus_experiment_allows_sun_anomalies():
    t = started_table()
    t.power(GG, "icarus_experiment")
    assert q.placement_refusal(t.state, GG, "4,4") is None
    t.power(GG)
    assert q.placement_refusal(t.state, GG, "4,4")[0] == "ANOMALY"


def test_leaked_research_activates_wormhole_for_a_cube_then_is_discarded():
    t = started_table()
    t.power(SC, "leaked_research")
    t.refused("bob", c.UseLeakedResearch(corp=SC), "NOT_PRESIDENT")
    t.do("cy", c.UseLeakedResearch(corp=SC))
    assert t.corp(SC).wormhole and t.state.investors["cy"].cubes == 0
    assert "leaked_research" not in t.corp(SC).powers


def test_nebular_explorers_turn_a_nebula_into_an_alien_planet_with_a_boxed_tile():
    t = started_table()
    t.power(SC, "alien_explorers", "nebular_explorers")
    t.corporation_turn(SC, "build")
    t.treasury(SC, 5)
    boxed = len(t.state.boxed_tiles)
    t.do("cy", c.BeginExpansion())
    events = t.do("cy", c.PlaceOutpost(hex="9,2"))
    assert "9,2" in t.state.converted_nebulae and len(t.state.boxed_tiles) == boxed - 1
    assert "9,2" in t.state.alien_tiles and of_type(events, "TechnologyGained")
    assert "nebular_explorers" not in t.corp(SC).powers
    assert q.is_alien_planet(t.state, "9,2")
    converted = of_type(events, "NebulaConverted")[0]        # the drawn tile stays face down for everyone
    for viewer in (None, "ann", "cy"):
        shown = GAME.redact(converted, viewer)
        assert shown["chevrons"] is None and shown["tile_index"] is None and shown["hex"] == "9,2"


def test_ore_refinement_adds_3_mining_capacity():
    t = started_table()
    t.power(FR)
    plain = q.mining_capacity(t.state, FR)
    t.power(FR, "ore_refinement")
    assert q.mining_capacity(t.state, FR) == plain + 3


def test_quantum_propulsion_discounts_a_wormhole_by_2():
    t = started_table()
    plain = q.wormhole_cost(t.state, CE, "5,0")
    t.power(CE, "quantum_propulsion")
    assert q.wormhole_cost(t.state, CE, "5,0") == plain - 2


def _spare_parts_scrap(options=None):
    t = started_table(options=options)
    t.power(GG, "spare_parts")
    t.empty_section(1)
    t.ship(GG, 1)
    t.empty_section(2)
    t.corporation_turn(CE, "ships")
    t.treasury(CE, 3)
    t.do("ann", c.OrderShip())                     # first level 3: level-1 ships are scrapped
    return t


def test_spare_parts_keep_a_scrapped_ship_for_one_more_dividend():
    t = _spare_parts_scrap()
    assert t.corp(GG).spare_ship == 1 and t.corp(GG).cargo == 1
    assert t.state.pending[0].kind == "spare_parts" and t.state.pending[0].player == "bob"
    t.do("bob", c.UseSpareParts(keep=True))
    t.corporation_turn(GG, "build")
    events = t.do("bob", c.SkipBuilding())
    assert "SpareShipScrapped" in types(events)
    assert t.corp(GG).cargo == 0 and "spare_parts" not in t.corp(GG).powers


def test_spare_parts_declined_scraps_the_ship_and_keeps_the_power():
    t = _spare_parts_scrap()
    t.do("bob", c.UseSpareParts(keep=False))
    assert t.corp(GG).spare_ship is None and t.corp(GG).cargo == 0 and "spare_parts" in t.corp(GG).powers


def test_spare_parts_automatic_option_keeps_without_asking():
    t = _spare_parts_scrap({"spare_parts_automatic": True})
    assert not t.state.pending and t.corp(GG).spare_ship == 1


def test_stalled_ipo_stays_minor_at_four_shares():
    t = started_table()
    t.shares(GG, ann=2, bob=2, president="bob")
    assert q.status(t.corp(GG)) == "major"
    t.power(GG, "stalled_ipo")
    assert q.status(t.corp(GG)) == "minor"


def test_windfall_pays_5_to_the_treasury_at_once_and_is_discarded():
    t = Table(("ann", "bob", "cy"))
    t.state.powers_row.append("windfall")
    while t.state.auction is not None:
        player = t.state.auction.order[t.state.auction.turn]
        t.do(player, c.Bid(amount=0) if t.state.auction.high_bid is None else c.PassBid())
        if t.state.pending:
            corp = t.state.pending[0].corp
            events = t.do(t.state.pending[0].player, c.DraftPower(power="windfall"))
            assert t.state.ledger.balance("corp:" + corp) == 5
            assert "windfall" not in t.corp(corp).powers
            return
    raise AssertionError("no draft happened")


def test_alien_explorers_give_the_builder_a_cube_on_alien_planets():
    t = started_table()
    t.power(PK, "alien_explorers")
    t.outpost(PK, "5,0")
    t.corporation_turn(PK, "build")
    t.treasury(PK, 1)
    cubes = t.state.investors["ann"].cubes
    t.do("ann", c.BeginExpansion())
    t.do("ann", c.PlaceOutpost(hex="6,0"))
    assert t.state.investors["ann"].cubes == cubes + 1
    assert not t.state.pending                     # a single alien planet: no signing yet


def amethyst_building_next_to_an_alien_tile(chevrons: int) -> Table:
    """Amethyst (cy's, holding Secret Agents) in its build step, one hex from a face-down alien tile."""
    t = started_table()
    t.shares(AM, cy=1)
    t.corp(AM).formed = True
    t.state.turn_order.append(AM)
    t.outpost(AM, "7,4", "4,6")
    t.corporation_turn(AM, "build")
    t.treasury(AM, 5)
    t.state.alien_tiles["4,5"] = chevrons
    return t


def test_secret_agents_raise_amethyst_by_3_or_the_aliens_by_the_tile():
    t = amethyst_building_next_to_an_alien_tile(2)
    cubes = t.state.investors["cy"].cubes
    t.do("cy", c.BeginExpansion())
    t.do("cy", c.PlaceOutpost(hex="4,5"))
    assert t.state.pending[0].kind == "agents_choice" and t.state.investors["cy"].cubes == cubes
    before = q.mining_capacity(t.state, AM)
    events = t.do("cy", c.ChooseAgentsBonus(choice="amethyst"))
    assert of_type(events, "AlienTileDiscarded")[0].chevrons is None
    assert q.mining_capacity(t.state, AM) == before + 3 and "4,5" not in t.state.alien_tiles


def test_secret_agents_aliens_choice_reveals_the_chevrons():
    t = amethyst_building_next_to_an_alien_tile(3)
    t.state.alien_mc = 7
    t.do("cy", c.BeginExpansion())
    t.do("cy", c.PlaceOutpost(hex="4,5"))
    t.do("cy", c.ChooseAgentsBonus(choice="aliens"))
    assert t.state.alien_mc == 16


def test_quantum_propulsion_discount_is_charged_on_create_wormhole():
    t = started_table()
    t.power(CE, "quantum_propulsion")
    t.corp(CE).wormhole = True
    t.corporation_turn(CE, "build")
    t.treasury(CE, 9)
    events = t.do("ann", c.CreateWormhole(hex="5,0"))       # distance 4 from (1,2): 3 skipped + 4 − 2
    assert of_type(events, "BuildFinished")[0].cost == 5


def test_a_corporations_powers_apply_to_a_private_contractor_build():
    t = started_table()
    t.power(GG, "icarus_experiment")
    t.shares(GG, bob=1, cy=1, president="bob")
    t.outpost(GG, "3,4")
    t.investor_step("shenanigans")
    t.state.director = "cy"
    t.liquid("cy", 5)
    t.do("cy", c.HireContractor(corp=GG))
    t.do("cy", c.PlaceOutpost(hex="4,4"))                    # a Sun, allowed by Gamboge's Icarus
    assert GG in t.state.outposts["4,4"]


def _no_unbuilt_outposts(t, corp_id):
    """Every outpost of the corporation is on the board or in the box (counts kept)."""
    corp = t.corp(corp_id)
    corp.boxed, corp.supply = corp.boxed + corp.supply, 0


def test_g_pwr_5_expand_network_without_unbuilt_outposts_is_refused_so_dismantling_can_come_first():
    t = started_table()
    t.power(GG, "dismantling_outposts")
    t.outpost(GG, "0,5")
    _no_unbuilt_outposts(t, GG)
    t.corporation_turn(GG, step="build")
    t.treasury(GG, 10)
    assert {"type": "BeginExpansion"} not in GAME.legal_actions(t.state, "bob")
    t.refused("bob", c.BeginExpansion(), "NO_OUTPOSTS_LEFT")
    t.do("bob", c.DismantleOutpost(corp=GG, hex="0,5"))
    assert t.corp(GG).supply == 1
    t.do("bob", c.BeginExpansion())
    assert t.state.build is not None and t.state.build.corp == GG


def test_g_pwr_5_dismantling_outposts_works_during_its_own_expansion_and_the_outpost_is_built_again():
    t = started_table()
    t.power(GG, "dismantling_outposts")
    t.outpost(GG, "0,5")
    _no_unbuilt_outposts(t, GG)
    t.corp(GG).boxed, t.corp(GG).supply = t.corp(GG).boxed - 1, 1
    t.corporation_turn(GG, step="build")
    t.treasury(GG, 10)
    t.do("bob", c.BeginExpansion())
    target = next(a["hex"] for a in GAME.legal_actions(t.state, "bob") if a["type"] == "PlaceOutpost")
    t.do("bob", c.PlaceOutpost(hex=target))      # the expansion uses its last unbuilt outpost
    assert not any(a["type"] == "PlaceOutpost" for a in GAME.legal_actions(t.state, "bob"))
    offered = GAME.legal_actions(t.state, "bob")
    assert {"type": "DismantleOutpost", "corp": GG, "hex": "0,5"} in offered
    t.do("bob", c.DismantleOutpost(corp=GG, hex="0,5"))
    assert t.corp(GG).supply == 1 and GG not in t.state.outposts.get("0,5", [])
    assert any(a["type"] == "PlaceOutpost" for a in GAME.legal_actions(t.state, "bob"))


def test_g_pwr_5_dismantling_is_still_refused_outside_its_own_turn():
    t = started_table()
    t.power(GG, "dismantling_outposts")
    t.outpost(GG, "0,5")
    t.investor_step("shenanigans")
    t.treasury(GG, 10)
    refusal = t.refused("bob", c.DismantleOutpost(corp=GG, hex="0,5"), "WRONG_STEP")
    assert "own corporation turn" in refusal.message


def test_private_contractor_and_jerry_rig_need_an_unbuilt_outpost():
    t = started_table()
    _no_unbuilt_outposts(t, GG)
    t.investor_step("shenanigans", seat=0)
    player = GAME.to_act(t.state)[0]
    t.shares(GG, president=player, **{player: 1})
    offered = {(a["type"], a.get("corp")) for a in GAME.legal_actions(t.state, player)}
    assert ("HireContractor", GG) not in offered and ("JerryRig", GG) not in offered
    refusal = t.refused(player, c.HireContractor(corp=GG), "NO_OUTPOSTS_LEFT")
    assert refusal.message == f"{GG} has no unbuilt outposts to build with"
    t.refused(player, c.JerryRig(corp=GG), "NO_OUTPOSTS_LEFT")
    t.corp(GG).boxed, t.corp(GG).supply = t.corp(GG).boxed - 1, 1      # one outpost left is enough
    offered = {(a["type"], a.get("corp")) for a in GAME.legal_actions(t.state, player)}
    assert {("HireContractor", GG), ("JerryRig", GG), ("PassInvestorAction", None)} <= offered


def test_expand_network_is_offered_with_a_single_unbuilt_outpost_left():
    t = started_table()
    _no_unbuilt_outposts(t, GG)
    t.corp(GG).boxed, t.corp(GG).supply = t.corp(GG).boxed - 1, 1
    t.corporation_turn(GG, step="build")
    assert {"type": "BeginExpansion"} in GAME.legal_actions(t.state, "bob")


def test_a_pending_decision_is_named_when_another_command_is_refused():
    t = started_table()
    t.state.pending = []
    t.corporation_turn(PK, "build")
    from stellar.state import Pending
    t.state.pending = [Pending("draft_power", "ann", PK, None, list(t.state.powers_row))]
    refusal = t.refused("ann", c.SkipBuilding(), "DECISION_PENDING")
    assert refusal.message == "waiting for ann (draft_power)"


def test_g_liq_4_accounting_gimmick_is_one_time_and_discarded_once_the_takeover_check_used_it():
    t = started_table()
    t.power(FR, "accounting_gimmick")
    t.corp(FR).signed, t.corp(FR).agreement_planets = True, 2
    t.state.alien_mc = q.mining_capacity(t.state, FR) + 4
    t.state.round = "liquidation"
    tx = GAME.tx(t.state)
    finish_liquidation(tx)
    assert "accounting_gimmick" not in tx.state.corps[FR].powers
    discarded = of_type(tx.events, "PowerDiscarded")
    assert [(e.corp, e.power) for e in discarded] == [(FR, "accounting_gimmick")]
    assert types(tx.events).index("PowerDiscarded") < types(tx.events).index("LiquidationCompleted")


def test_g_liq_4_accounting_gimmick_of_an_unsigned_corporation_is_not_used():
    t = started_table()
    t.power(FR, "accounting_gimmick")
    t.state.round = "liquidation"
    tx = GAME.tx(t.state)
    finish_liquidation(tx)
    assert "accounting_gimmick" in tx.state.corps[FR].powers and not of_type(tx.events, "PowerDiscarded")


def test_g_pwr_5_dismantling_may_not_spend_what_its_own_open_build_owes():
    """The build is paid when it finishes, from the same treasury: dismantling with only that money left
    would leave a build that can neither be paid nor finished (a bot playout found it)."""
    t = started_table()
    t.power(GG, "dismantling_outposts")
    t.outpost(GG, "0,5")
    t.corporation_turn(GG, step="build")
    t.treasury(GG, 10)
    t.do("bob", c.BeginExpansion())
    target = next(a["hex"] for a in GAME.legal_actions(t.state, "bob") if a["type"] == "PlaceOutpost")
    t.do("bob", c.PlaceOutpost(hex=target))
    owed = q.build_cost(t.state.build)
    t.treasury(GG, owed)
    assert not any(a["type"] == "DismantleOutpost" for a in GAME.legal_actions(t.state, "bob"))
    t.refused("bob", c.DismantleOutpost(corp=GG, hex="0,5"), "INSUFFICIENT_FUNDS")
    t.treasury(GG, owed + 1)
    assert {"type": "DismantleOutpost", "corp": GG, "hex": "0,5"} in GAME.legal_actions(t.state, "bob")
    t.do("bob", c.DismantleOutpost(corp=GG, hex="0,5"))
    t.do("bob", c.FinishBuilding())
    assert t.state.build is None and t.state.ledger.balance("corp:" + GG) == 0
