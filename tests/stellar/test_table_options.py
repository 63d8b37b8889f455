"""Table options for the rulings a group might make otherwise: each is tested at its default and changed."""
import pytest
from stellar_given import Table, auction_table, of_type, started_table, types

from starbase_rules.contract import RuleViolation
from starbase_rules.fair import FairRng
from stellar import commands as c
from stellar import queries as q
from stellar.board import MEGA_EARTH, alpha
from stellar.game import GAME
from stellar.state import TAX_BOX, treasury

GG, CE, PK, FR, SC, AM = ("gamboge_guild", "cerulean_council", "pink_inc", "frost_federated",
                          "scarlet_syndicate", "amethyst_agency")


# -- G-AUC-1: may the initiator of an auction pass? ----------------------------------------------

def test_g_auc_1_by_default_the_initiator_must_open_the_auction():
    t = auction_table()
    t.refused(t.state.auction.order[0], c.PassBid(), "INITIATOR_MUST_BID")


def test_g_auc_1_option_lets_the_initiator_pass_and_the_next_bidder_take_the_share_for_0():
    t = auction_table(options={"auction_opener_may_pass": True})
    opener, second, third = t.state.auction.order
    t.do(opener, c.PassBid())
    t.do(second, c.Bid(amount=0))
    t.do(third, c.PassBid())
    assert t.corp(SC).president == second and t.corp(SC).holders == {second: 1}


def test_g_auc_1_option_an_issue_share_auction_everyone_passes_issues_nothing():
    t = started_table(options={"auction_opener_may_pass": True})
    ann_cash, charter, treasury_before = t.state.ledger.balance("liquid:ann"), t.corp(CE).charter, \
        t.state.ledger.balance(treasury(CE))
    t.do("ann", c.IssueShare())
    order = t.state.auction.order
    events = []
    for player in order:
        events += t.do(player, c.PassBid())
    assert "AuctionLapsed" in types(events) and not of_type(events, "ShareSold")
    assert t.state.auction is None and t.state.corp_turn.step == "build"
    assert t.corp(CE).charter == charter and t.state.ledger.balance(treasury(CE)) == treasury_before
    assert t.state.ledger.balance("liquid:ann") == ann_cash


def test_g_auc_1_option_a_boardroom_battle_share_must_still_be_sold():
    t = started_table(options={"auction_opener_may_pass": True})
    t.investor_step("voting")
    for player in t.state.clockwise_from(t.state.director):
        t.do(player, c.PassVoting())
    t.do(t.state.director, c.ChooseBattleCorp(corp=GG))        # 0-0 ties: the Director picks
    order = t.state.auction.order
    for player in order[:-1]:
        t.do(player, c.PassBid())
    t.refused(order[-1], c.PassBid(), "LAST_BIDDER_MUST_BID")
    t.do(order[-1], c.Bid(amount=0))
    assert t.corp(GG).holders.get(order[-1], 0) >= 1


# -- G-ME-2: Mega-Earth's value after an outpost leaves ------------------------------------------

def _mega_earth_with_a_loan(option):
    """Gamboge, Cerulean and Pink on Mega-Earth (boxes 1-3); Gamboge pledges its Mega-Earth outpost."""
    t = started_table(options={"mega_earth_value": option})
    t.outpost(GG, MEGA_EARTH)
    t.outpost(CE, MEGA_EARTH)
    t.outpost(PK, MEGA_EARTH)
    assert q.planet_value(t.state, MEGA_EARTH) == 12
    t.corporation_turn(GG, "ships", forced_ship=True)
    t.treasury(GG, 0)
    t.do("bob", c.OrderShip(loan_outposts=[MEGA_EARTH]))
    assert t.state.outposts[MEGA_EARTH] == [CE, PK] and t.corp(GG).loans == 1
    return t


def _wormhole_to_mega_earth(t):
    t.corp(FR).wormhole = True
    t.corporation_turn(FR, "build")
    t.treasury(FR, 30)
    t.do("bob", c.CreateWormhole(hex=MEGA_EARTH))


def test_g_me_2_by_default_the_remaining_outposts_slide_down():
    t = _mega_earth_with_a_loan("outposts_present")
    assert q.planet_value(t.state, MEGA_EARTH) == 9
    _wormhole_to_mega_earth(t)
    assert q.planet_value(t.state, MEGA_EARTH) == 12


def test_g_me_2_literal_option_the_emptied_bottom_box_shows_its_number_until_refilled():
    t = _mega_earth_with_a_loan("lowest_empty_box")
    assert t.state.mega_boxes == {CE: 1, PK: 2}
    assert q.planet_value(t.state, MEGA_EARTH) == 3                 # the number under the bottom box
    assert q.mining_capacity(t.state, CE) == q.planet_value(t.state, "1,2") + 3
    _wormhole_to_mega_earth(t)                                      # "built in the bottom-most empty box"
    assert t.state.mega_boxes[FR] == 0
    assert q.planet_value(t.state, MEGA_EARTH) == 12


def test_g_me_2_both_readings_agree_while_nothing_leaves():
    for option in ("outposts_present", "lowest_empty_box"):
        t = started_table(options={"mega_earth_value": option})
        values = []
        for corp in (GG, CE, PK, FR):
            t.outpost(corp, MEGA_EARTH)
            values.append(q.planet_value(t.state, MEGA_EARTH))
        assert values == [6, 9, 12, 15]


# -- G-PWR-3: Icarus Experiment and nebular anomalies --------------------------------------------

def _scarlet_next_to_a_nebula(options=None):
    t = started_table(options=options)
    t.power(SC, "icarus_experiment")
    t.corporation_turn(SC, "build")
    t.treasury(SC, 10)
    t.do("cy", c.BeginExpansion())
    nebula = next(h for h in sorted(alpha().neighbours["9,1"]) if alpha().hexes[h].kind == "nebular_anomaly")
    return t, nebula


def test_g_pwr_3_by_default_icarus_experiment_does_not_open_nebular_anomalies():
    t, nebula = _scarlet_next_to_a_nebula()
    t.refused("cy", c.PlaceOutpost(hex=nebula), "ANOMALY")


def test_g_pwr_3_option_icarus_builds_on_a_nebula_without_making_it_an_alien_planet():
    t, nebula = _scarlet_next_to_a_nebula({"icarus_includes_nebulae": True})
    boxed = list(t.state.boxed_tiles)
    events = t.do("cy", c.PlaceOutpost(hex=nebula))
    assert SC in t.state.outposts[nebula] and not of_type(events, "NebulaConverted")
    assert not q.is_alien_planet(t.state, nebula) and t.state.boxed_tiles == boxed


# -- Tax Agents (Borders & Taxes' Amethyst power; on Alpha only by option) -----------------------

def _tax_agents_on_an_alien_planet(gamboge_cash=10, pink_cash=1):
    t = started_table(options={"amethyst_power": "tax_agents"})
    assert t.corp(AM).powers == ["tax_agents"]
    t.shares(AM, cy=1)
    t.corp(AM).formed = True
    t.state.turn_order.append(AM)
    t.outpost(AM, "7,4", "4,6")
    t.outpost(GG, "4,5")
    t.outpost(PK, "4,5")
    t.treasury(GG, gamboge_cash)
    t.treasury(PK, pink_cash)
    t.state.alien_tiles["4,5"] = 2
    t.corporation_turn(AM, "build")
    t.treasury(AM, 5)
    cubes = t.state.investors["cy"].cubes
    t.do("cy", c.BeginExpansion())
    t.do("cy", c.PlaceOutpost(hex="4,5"))
    assert t.state.pending[0].kind == "tax_choice" and t.state.investors["cy"].cubes == cubes
    return t


def test_tax_agents_tax_payment_charges_every_other_corporation_on_the_planet_into_the_tax_box():
    t = _tax_agents_on_an_alien_planet(gamboge_cash=10, pink_cash=1)
    t.do("cy", c.ChooseTaxAction(choice="tax"))
    assert t.state.ledger.balance(treasury(GG)) == 7
    assert t.state.ledger.balance(treasury(PK)) == 0            # pays what it has: a tax allows no loan
    assert t.state.ledger.balance(TAX_BOX) == 4
    assert t.state.alien_tiles["4,5"] == 2                       # Tax Agents never touches the tile


def test_tax_agents_steal_takes_up_to_3_from_the_tax_box_into_amethysts_treasury():
    t = _tax_agents_on_an_alien_planet()
    t.cash(TAX_BOX, 5)
    t.do("cy", c.ChooseTaxAction(choice="steal"))
    assert t.state.ledger.balance(TAX_BOX) == 2
    t.do("cy", c.FinishBuilding())
    assert t.state.ledger.balance(treasury(AM)) == 5 + 3 - (1 + 2)    # one outpost: cost 1 + penalty 2


def test_tax_agents_steal_from_the_empty_alpha_tax_box_gives_nothing():
    t = _tax_agents_on_an_alien_planet()
    events = t.do("cy", c.ChooseTaxAction(choice="steal"))
    assert not [e for e in of_type(events, "CashMoved") if e.reason == "tax box"]


def test_tax_agents_tax_payment_size_is_a_table_option_and_amethyst_keeps_secret_agents_by_default():
    """As printed, Alpha never sees Tax Agents: Amethyst forms with Secret Agents and Tax Agents is not
    one of the neutral powers dealt at setup."""
    from stellar.facts import tables
    default = started_table()
    assert default.corp(AM).powers == ["secret_agents"]
    assert "tax_agents" not in tables().neutral_powers
    assert "tax_agents" not in default.state.powers_row + default.state.powers_pile
    t = started_table(options={"amethyst_power": "tax_agents", "tax_payment": 0})
    assert t.state.options.tax_payment == 0
    with pytest.raises(RuleViolation) as caught:
        GAME.setup(["a", "b", "c"], {"amethyst_power": "border_patrol"}, FairRng(b"x"))
    assert caught.value.code == "BAD_OPTION"


# -- ASSUMED power counts ------------------------------------------------------------------------

def test_the_row_and_pile_of_powers_are_table_options():
    t = Table(options={"powers_face_up": 4, "powers_face_down": 3})
    assert len(t.state.powers_row) == 4 and len(t.state.powers_pile) == 3
    default = Table()
    assert len(default.state.powers_row) == 6 and len(default.state.powers_pile) == 5
    with pytest.raises(RuleViolation) as caught:
        GAME.setup(["a", "b", "c"], {"powers_face_up": 10, "powers_face_down": 4}, FairRng(b"x"))
    assert caught.value.code == "BAD_OPTION"


# -- the declaration ---------------------------------------------------------------------------------

def test_every_declared_option_is_documented_with_its_default():
    import json
    from pathlib import Path

    doc = (Path(__file__).parents[2] / "docs" / "stellar.md").read_text()
    rows = [line for line in doc.splitlines() if line.startswith("| `")]
    for spec in GAME.info.options:
        row = next((r for r in rows if f"`{spec.key}`" in r), None)
        assert row is not None, f"{spec.key} is not in docs/stellar.md's option table"
        assert f"`{json.dumps(spec.default)}`" in row or spec.key.startswith("powers_face"), (spec.key, row)


def test_the_difficulty_choices_are_the_alien_starts_of_the_data():
    from stellar.facts import tables
    assert set(GAME.info.option("difficulty").choices) == set(tables().difficulty)


def test_new_investor_setup_takes_only_the_printed_funds_and_at_most_13_powers_are_dealt():
    from stellar.facts import tables
    printed = tables().starting_funds[3]
    assert GAME.setup(["a", "b", "c"], {"new_investor_setup": True, "starting_funds": printed}, FairRng(b"x"))
    for options in ({"new_investor_setup": True, "starting_funds": printed + 1},
                    {"powers_face_up": 7, "powers_face_down": 7}):
        with pytest.raises(RuleViolation) as caught:
            GAME.setup(["a", "b", "c"], options, FairRng(b"x"))
        assert caught.value.code == "BAD_OPTION"
    assert GAME.setup(["a", "b", "c"], {"powers_face_up": 7, "powers_face_down": 6}, FairRng(b"x"))


def test_the_option_bounds_are_the_rules_bounds():
    """0 cubes, funds, powers or planets is a table's right; 5 cubes each would not fit the 24-cube supply
    with Amethyst's; a pile or row of 14 powers cannot be dealt."""
    for options in ({"starting_cubes": 0}, {"starting_cubes": 4}, {"starting_funds": 0}, {"signing_min_alien_planets": 0},
                    {"powers_face_up": 0}, {"powers_face_down": 0}, {"powers_face_up": 13, "powers_face_down": 0},
                    {"powers_face_up": 0, "powers_face_down": 13}):
        assert GAME.setup(["a", "b", "c"], options, FairRng(b"x")), options
    for options in ({"starting_cubes": 5}, {"powers_face_up": 14, "powers_face_down": 0},
                    {"powers_face_up": 0, "powers_face_down": 14}, {"starting_funds": -1}):
        with pytest.raises(RuleViolation) as caught:
            GAME.setup(["a", "b", "c"], options, FairRng(b"x"))
        assert caught.value.code == "BAD_OPTION", options


def test_option_combination_refusals_say_why():
    from stellar.facts import tables
    cases = [({"powers_face_up": 7, "powers_face_down": 7},
              "at most 13 powers may be dealt (New Investor Setup gives 5 more)"),
             ({"new_investor_setup": True, "starting_funds": tables().starting_funds[3] + 1},
              "New Investor Setup uses the printed starting funds")]
    for options, message in cases:
        with pytest.raises(RuleViolation) as caught:
            GAME.setup(["a", "b", "c"], options, FairRng(b"x"))
        assert caught.value.message == message
    assert GAME.info.title == "Stellar Ventures"
