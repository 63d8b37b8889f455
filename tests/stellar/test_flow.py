"""Setup, the initial auction, presidency, the Investor and Administration Rounds, Amethyst, era 5."""
import pytest
from stellar_given import Table, auction_table, of_type, started_table, types

from starbase_rules.contract import RuleViolation
from stellar import commands as c
from stellar import queries as q
from stellar.game import GAME

GG, CE, PK, FR, SC, AM = ("gamboge_guild", "cerulean_council", "pink_inc", "frost_federated",
                          "scarlet_syndicate", "amethyst_agency")


@pytest.mark.parametrize("difficulty, start", [("friendly", 4), ("adverse", 7), ("hostile", 10)])
def test_difficulty_sets_the_alien_start(difficulty, start):
    assert Table(options={"difficulty": difficulty}).state.alien_mc == start


def test_setup_deals_seven_face_down_agreement_tiles_and_three_shipyard_tiles_hidden_from_views():
    t = Table()
    assert len(t.state.alien_tiles) == 7 and len(t.state.boxed_tiles) == 3
    assert sorted(t.state.shipyard_tiles) == [2, 3, 5]
    seen = GAME.view(t.state, "ann")
    assert seen["face_down_alien_tiles"] == sorted(t.state.alien_tiles) and seen["boxed_tiles"] == 3
    public = GAME.redact(t.events[0], "ann")
    assert set(public["alien_tiles"].values()) == {None} and public["powers_pile"] == 5
    assert "chevrons" not in str(seen)


def test_first_play_drops_the_4_chevron_tile_and_uses_the_starred_powers():
    t = Table(options={"first_play": True})
    assert 4 not in list(t.state.alien_tiles.values()) + t.state.boxed_tiles
    assert sorted(t.state.powers_row) == sorted(["alien_alchemist", "hyperdrive", "icarus_experiment",
                                                 "leaked_research", "ore_refinement", "windfall"])


def test_starting_funds_and_cubes_options():
    t = Table(options={"starting_funds": 50, "starting_cubes": 2})
    assert t.state.ledger.balance("liquid:ann") == 50 and t.state.investors["bob"].cubes == 2
    assert t.state.cube_supply == 24 - 6 - 1


def test_row_zero_pays_option():
    t = started_table(options={"row_zero_pays": False})
    t.corporation_turn(GG, "build")
    events = t.do("bob", c.SkipBuilding())
    assert [(e.row, e.per_share) for e in of_type(events, "DividendPaid")] == [(0, 0)]
    t = started_table()
    t.corporation_turn(GG, "build")
    assert [e.per_share for e in of_type(t.do("bob", c.SkipBuilding()), "DividendPaid")] == [2]


def test_setup_refuses_bad_player_counts_and_options():
    from starbase_rules.fair import FairRng
    for players, options, code in ((["a", "b"], {}, "BAD_PLAYER_COUNT"), (["a", "b", "c"], {"x": 1}, "UNKNOWN_OPTION"),
                                   (["a", "b", "c"], {"difficulty": "easy"}, "BAD_OPTION"),
                                   (["a", "b", "c"], {"starting_cubes": 9}, "BAD_OPTION")):
        with pytest.raises(RuleViolation) as caught:
            GAME.setup(players, options, FairRng(b"s"))
        assert caught.value.code == code


def test_initial_auction_runs_scarlet_first_zero_wins_and_the_winner_drafts_then_opens_the_next():
    t = auction_table()
    a = t.state.auction
    assert (a.corp, a.purpose) == (SC, "initial")
    opener = a.order[0]
    t.refused(opener, c.PassBid(), "INITIATOR_MUST_BID")
    t.do(opener, c.Bid(amount=0))
    for player in a.order[1:]:
        t.do(player, c.PassBid())
    assert t.corp(SC).president == opener and t.state.pending[0].kind == "draft_power"
    power = t.state.powers_row[0]
    t.do(opener, c.DraftPower(power=power))
    assert power in t.corp(SC).powers and power not in t.state.powers_row
    assert (t.state.auction.corp, t.state.auction.order[0]) == (FR, opener)


def test_random_auction_order_option_shuffles_the_lots_and_reverses_the_first_turn_order():
    t = auction_table(options={"random_auction_order": True})
    lots = t.events[0].auction_order
    assert sorted(lots) == sorted([CE, GG, PK, FR, SC]) and t.state.auction.corp == lots[0]
    assert t.state.turn_order == list(reversed(lots))


def test_a_passed_bidder_may_not_re_enter():
    t = auction_table()
    order = t.state.auction.order
    t.do(order[0], c.Bid(amount=1))
    t.do(order[1], c.PassBid())
    t.do(order[2], c.Bid(amount=2))
    t.do(order[0], c.Bid(amount=3))
    t.refused(order[1], c.Bid(amount=4), "NOT_YOUR_TURN")
    assert t.state.auction.order[t.state.auction.turn] == order[2]


def test_after_the_initial_auction_scarlets_president_directs_and_the_pile_is_revealed():
    t = auction_table()
    while t.state.round == "initial_auction":
        if t.state.pending:
            t.do(t.state.pending[0].player, c.DraftPower(power=t.state.pending[0].options[0]))
            continue
        a = t.state.auction
        t.do(a.order[a.turn], c.Bid(amount=0) if a.high_bid is None else c.PassBid())
    assert t.state.director == t.corp(SC).president
    assert len(t.state.powers_row) == 6 and t.state.powers_pile == []
    assert t.state.round == "corporation" and t.state.corp_turn.corp == CE


def test_new_investor_setup_matches_the_printed_funds():
    t = Table(("a", "b", "c", "d"), {"new_investor_setup": True})
    liquid = {p: t.state.ledger.balance("liquid:" + p) for p in "abcd"}
    assert liquid == {"a": 10, "b": 17, "c": 20, "d": 8}
    assert t.corp(PK).president == "a" and t.corp(CE).president == "a"
    assert t.state.ledger.balance("corp:" + SC) == 22 and len(t.state.powers_row) == 6


def test_a_bigger_shareholder_takes_the_presidency_mid_turn_and_decides_the_rest():
    t = started_table()                    # ann presides Cerulean with 1 share
    t.shares(CE, ann=1, bob=1, president="ann")
    t.corporation_turn(CE)
    t.do("ann", c.IssueShare())
    t.do("ann", c.Bid(amount=0))
    t.do("bob", c.Bid(amount=1))
    t.do("cy", c.PassBid())
    t.do("ann", c.PassBid())
    assert t.corp(CE).president == "bob"
    t.refused("ann", c.SkipBuilding(), "NOT_YOUR_TURN")
    t.do("bob", c.SkipBuilding())


def test_a_tie_keeps_the_incumbent_president():
    t = started_table()
    t.corporation_turn(CE)
    t.do("ann", c.IssueShare())
    t.do("ann", c.Bid(amount=0))
    t.do("bob", c.Bid(amount=1))
    t.do("cy", c.PassBid())
    t.do("ann", c.PassBid())
    assert t.corp(CE).holders == {"ann": 1, "bob": 1} and t.corp(CE).president == "ann"


def test_forced_ship_order_takes_the_minimum_loans():
    t = started_table()
    t.corporation_turn(GG, "ships", forced_ship=True)
    t.treasury(GG, 0)
    t.refused("bob", c.FinishOrdering(), "FORCED_SHIP_ORDER")
    events = t.do("bob", c.OrderShip())
    assert len(of_type(events, "LoanTaken")) == 1 and t.corp(GG).loans == 1
    assert t.state.ledger.balance("corp:" + GG) == 2 and t.corp(GG).ordered == [1]


def test_loans_may_pledge_a_board_outpost_and_lower_mining_capacity():
    t = started_table()
    t.outpost(GG, "3,4")
    t.empty_section(1)
    t.empty_section(2)
    t.empty_section(3)
    t.corporation_turn(GG, "ships", forced_ship=True)
    t.treasury(GG, 0)
    t.refused("bob", c.OrderShip(loan_outposts=["9,9"]), "BAD_LOAN_OUTPOST")
    t.refused("bob", c.OrderShip(loan_outposts=["supply", "supply", "3,4"]), "TOO_MANY_LOANS")
    before = q.mining_capacity(t.state, GG)
    t.do("bob", c.OrderShip(loan_outposts=["3,4", "supply"]))
    assert q.mining_capacity(t.state, GG) == before - 3 and t.corp(GG).loans == 2


def test_boardroom_battle_example_director_breaks_the_tie_and_votes_are_spent_or_returned():
    t = Table(("lindsey", "courtney", "leo"), {"new_investor_setup": True})
    t.state.director = "lindsey"
    t.investor_step("voting")
    t.do("lindsey", c.PassVoting())
    t.do("courtney", c.PlaceVotes(corp=GG, count=2))
    t.do("leo", c.PlaceVotes(corp=PK, count=2))
    assert t.state.pending[0].kind == "battle_choice" and set(t.state.pending[0].options) == {GG, PK}
    t.do("lindsey", c.ChooseBattleCorp(corp=PK))
    assert t.state.auction.corp == PK and t.state.auction.order[0] == "lindsey"
    t.do("lindsey", c.Bid(amount=0))
    t.do("courtney", c.PassBid())
    t.do("leo", c.PassBid())
    assert t.state.investors["leo"].votes == 4 and t.state.investors["courtney"].votes == 6
    assert t.state.inv.step == "shenanigans"


def test_release_dividends_moves_frozen_to_liquid():
    t = started_table()
    t.cash("frozen:bob", 12)
    liquid = t.state.ledger.balance("liquid:bob")
    t.corporation_turn(SC, "ships")
    t.do("cy", c.FinishOrdering())
    assert t.state.ledger.balance("liquid:bob") == liquid + 12 and t.state.ledger.balance("frozen:bob") == 0


def test_shenanigans_private_contractor_pays_from_liquid_and_jerry_rig_is_free():
    t = started_table()
    t.investor_step("shenanigans")
    player = t.state.director                       # cy presides Scarlet
    t.liquid(player, 5)
    t.do(player, c.HireContractor(corp=SC))
    t.do(player, c.PlaceOutpost(hex="10,1"))
    t.do(player, c.FinishBuilding())
    assert t.state.ledger.balance("liquid:" + player) == 4 and t.state.inv.part == "alien"
    t.do(player, c.PassAlienAction())
    t.state.inv.seat = 0
    t.refused(player, c.HireContractor(corp=SC), "DISC_ALREADY_THERE")
    t.refused(player, c.JerryRig(corp=CE), "NOT_SHAREHOLDER")
    t.do(player, c.JerryRig(corp=SC))
    t.do(player, c.PlaceOutpost(hex="10,0"))
    assert t.state.ledger.balance("liquid:" + player) == 4 and t.state.inv.part == "alien"


def test_shenanigans_insurance_fraud_black_market_and_the_alien_actions():
    t = started_table()
    t.investor_step("shenanigans")
    player = t.state.director
    t.ship(SC, 2)
    t.do(player, c.InsuranceFraud(corp=SC, level=2))
    assert t.corp(SC).cargo == 0 and t.state.ledger.balance("corp:" + SC) == 24
    t.do(player, c.CargoBoost(corp=SC, cubes=1))
    assert t.corp(SC).cargo == 1 and t.corp(SC).boost_cubes == 1
    nxt = t.state.clockwise_from(player)[1]
    t.do(nxt, c.BlackMarket())
    assert t.state.investors[nxt].votes == 5 and t.state.investors[nxt].cubes == 2
    t.do(nxt, c.DevelopPlanets(hexes=["3,4", "5,0"]))
    assert q.planet_value(t.state, "3,4") == 6
    last = t.state.clockwise_from(player)[2]
    t.do(last, c.PassInvestorAction())
    liquid = t.state.ledger.balance("liquid:" + last)
    t.do(last, c.Launder(cubes=1))
    assert t.state.ledger.balance("liquid:" + last) == liquid + 2


def test_research_wormhole_needs_a_shareholder_and_no_active_wormhole():
    t = started_table()
    t.investor_step("shenanigans", part="alien")
    player = t.state.director
    t.do(player, c.ResearchWormhole(corp=SC))
    assert t.corp(SC).wormhole


def test_administration_scraps_delivers_reorders_and_passes_the_director():
    t = started_table()
    t.outpost(FR, "14,0", "8,5")                  # Frost now has the most mining capacity
    t.ship(GG, 1, delivered=False)
    director = t.state.director
    t.investor_step("shenanigans", seat=len(t.state.players) - 1, part="alien")
    last = t.state.clockwise_from(director)[-1]
    events = t.do(last, c.PassAlienAction())
    assert of_type(events, "ShipyardShipScrapped")[0].level == 1
    assert t.corp(GG).cargo == 1 and t.corp(GG).delivered == [1]
    assert t.state.turn_order[0] == FR
    assert t.state.director == t.state.next_player(director) and t.state.era == 2


def test_amethyst_agency_launches_by_auction_at_era_3_with_its_home_choice():
    t = started_table()
    t.state.era = 2
    director = t.state.director
    t.investor_step("shenanigans", seat=len(t.state.players) - 1, part="alien")
    t.do(t.state.clockwise_from(director)[-1], c.PassAlienAction())
    new_director = t.state.director
    assert t.state.era == 3 and t.state.auction.corp == AM and t.state.auction.order[0] == new_director
    t.do(new_director, c.Bid(amount=2))
    for player in t.state.auction.order[1:]:
        t.do(player, c.PassBid())
    assert t.state.pending[0].kind == "choose_home"
    t.refused(new_director, c.ChooseHome(hex="0,4"), "NOT_A_HOME_OPTION")
    t.do(new_director, c.ChooseHome(hex="0,7"))
    assert q.mining_capacity(t.state, AM) == 2 and t.state.turn_order[-1] == AM
    assert t.corp(AM).wormhole and t.corp(AM).powers == ["secret_agents"]
    assert t.state.ledger.balance("corp:" + AM) == 2


def test_era_5_skips_the_investor_round_and_ends_in_liquidation():
    t = started_table()
    t.state.era = 5
    t.corporation_turn(SC, "ships")
    events = t.do("cy", c.FinishOrdering())
    assert "DividendsReleased" not in types(events) and t.state.round == "over"
    outcome = GAME.outcome(t.state)
    assert sorted(s.player for s in outcome.standings) == ["ann", "bob", "cy"]
    scores = of_type(events, "LiquidationCompleted")[0].scores
    assert [s.score for s in outcome.standings] == sorted(scores.values(), reverse=True)


def test_ties_at_the_end_go_to_the_president_of_the_largest_mining_capacity():
    t = started_table()
    t.state.final_scores = {"ann": 10, "bob": 10, "cy": 5}
    t.state.round = "over"
    t.outpost(GG, "14,0")                          # bob presides Gamboge, now the largest
    ranks = {s.player: s.rank for s in GAME.outcome(t.state).standings}
    assert ranks == {"bob": 1, "ann": 2, "cy": 3}


def test_a_taken_over_corporation_breaks_no_tie_its_tokens_are_gone():
    """Liquidation step 2 removes a taken-over corporation's tokens, its MC marker included (R-10)."""
    t = started_table()
    t.state.final_scores = {"ann": 10, "bob": 10, "cy": 5}
    t.state.round = "over"
    t.outpost(GG, "14,0")                          # bob presides Gamboge (5) and Frost (4), the largest ...
    for corp in (GG, FR):
        t.corp(corp).signed, t.corp(corp).taken_over = True, True
        t.corp(corp).aliens, t.corp(corp).charter = 1, t.corp(corp).charter - 1
    ranks = {s.player: s.rank for s in GAME.outcome(t.state).standings}
    assert ranks == {"ann": 1, "bob": 2, "cy": 3}  # ... but both were taken over: ann's corporations decide


def test_a_disc_left_on_an_action_blocks_it_next_round_and_passing_frees_it():
    t = started_table()
    t.investor_step("shenanigans")
    player = t.state.director
    t.state.investors[player].investor_disc = "black_market"   # where it was left last round
    t.refused(player, c.BlackMarket(), "DISC_ALREADY_THERE")
    t.do(player, c.PassInvestorAction())
    assert t.state.investors[player].investor_disc is None
    t.state.inv.seat, t.state.inv.part = 0, "investor"          # the next round
    t.do(player, c.BlackMarket())
