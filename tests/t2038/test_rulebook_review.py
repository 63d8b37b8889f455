"""A rule-by-rule review of the rulebook: stock-round limits (5.31, 5.35, 5.36), operating order and
stacking (5, 6, 7.38), the golden parachute and excess ships (8, 8.11, 8.13), bankruptcy (9) and the
optional rules. Each test names its rule section; states are built from events."""
import pytest

from t2038 import commands as cmd
from t2038 import events as ev
from t2038.flow import operating_order
from t2038.game import GAME

from .helpers import game, given, of_type, price, refused, when
from .stock_fixtures import ALL_SOLD, tsi_held
from .test_growth_and_league import phase_iii_purchase
from .test_ships_and_phases import bought_out, tsi_buying


def corporations_in_order(state) -> list[str]:
    return [who for who in operating_order(state) if who.startswith("c:")]


def launched(corp: str, president: str, par: int, row: int, column: int, units: int = 2, active=True) -> list:
    events = [ev.SharesMoved(corp=corp, source="ipo", destination=f"p:{president}", units=units),
              ev.CorporationLaunched(corp=corp, player=president, par=par),
              ev.StockPriceMoved(corp=corp, row=row, column=column)]
    return events + ([ev.CorporationActivated(corp=corp)] if active else [])


# ---- 5.31 / 5.35: complying on the next stock turn -------------------------------------------------
def league_formed_with_declines():
    """dee formed the League in Phase III; every owner declined to merge; TSI is buying (ann)."""
    state, _ = when(phase_iii_purchase(), "ann", cmd.BuyShip(phase=3, kind="scout"))
    state, _ = when(state, "dee", cmd.FormLeague())
    while state.pending:
        state, _ = when(state, state.pending[0][1], cmd.Decline())
    return state


def test_5_31_a_voluntary_merger_may_not_take_an_owner_past_60_percent_of_the_league():
    state = given(league_formed_with_declines(),
                  ev.SharesMoved(corp="AL", source="growth", destination="p:dee", units=2),
                  ev.SharesMoved(corp="AL", source="trade_in", destination="p:dee", units=2),
                  ev.DecisionsQueued(decisions=[["merge", "dee", 3, "later"]]))
    assert state.units("AL", "p:dee") == 6
    refused(state, "dee", cmd.MergeIndependent(independent=3), "HOLDING_LIMIT")
    assert {"type": "MergeIndependent", "v": 1, "independent": 3} not in GAME.legal_actions(state, "dee")
    state, _ = when(state, "dee", cmd.Decline())
    assert state.company_owner[3] == "p:dee"


def test_5_31_a_forced_merger_may_and_the_owner_must_sell_before_buying_next_stock_turn():
    state = given(league_formed_with_declines(),
                  ev.SharesMoved(corp="AL", source="growth", destination="p:dee", units=2),
                  ev.SharesMoved(corp="AL", source="trade_in", destination="p:dee", units=2),
                  ev.OperatorFinished(operator="c:TSI"),
                  ev.ShipRemoved(ship="2.02", to="bank"), ev.ShipRemoved(ship="2.08", to="bank"),
                  ev.OperatorStarted(operator="i:3"),
                  ev.EarningsDeclared(operator="i:3", choice="retain", earnings=0, retained=0, per_share=0))
    state, _ = when(state, "dee", cmd.MergeIndependent(independent=3))      # 7.39: no ship, so forced
    assert state.units("AL", "p:dee") == 7
    state = given(state, ev.RoundStarted(kind="stock", set_number=3, first_player="dee"))
    refused(state, "dee", cmd.BuyShare(corp="TSI", source="ipo"), "MUST_COMPLY")
    refused(state, "dee", cmd.Pass(), "MUST_COMPLY")
    state, _ = when(state, "dee", cmd.SellShares(corp="AL", count=1))
    state, _ = when(state, "dee", cmd.BuyShare(corp="TSI", source="ipo"))
    assert state.units("TSI", "p:dee") == 1 and state.turn == "ann"


def test_5_35_a_player_over_the_certificate_limit_may_not_launch_or_buy_before_selling():
    # Short game, 4 players: limit 13. ann: 3 companies + TSI 50 % (5) + RU 60 % as President (5) + LE (1).
    state = tsi_held({"bob": 2, "ann": 5}, president="bob", short=True)
    state = given(state, *launched("RU", "ann", 67, 4, 4, units=6), ev.OperatorFinished(operator="c:RU"),
                  *launched("LE", "ann", 67, 4, 4, active=False))
    refused(state, "ann", cmd.BuyShare(corp="LE"), "MUST_COMPLY")
    refused(state, "ann", cmd.LaunchCorporation(corp="MM", par=67), "MUST_COMPLY")


# ---- 5.23 / 5.24: the example, seen from a seat where "clockwise" wraps round the table ---------------
def test_5_24_example_the_certificate_goes_clockwise_from_the_seller_round_the_table():
    state = tsi_held({"cy": 2, "ann": 2, "bob": 2}, president="cy", market=4)
    state = given(state, ev.StockTurnEnded(player="ann", passed=True, next_player="bob"),
                  ev.StockTurnEnded(player="bob", passed=True, next_player="cy"))
    state, events = when(state, "cy", cmd.SellShares(corp="TSI", count=1))
    assert state.president["TSI"] == "ann"                                    # dee holds none: ann, not bob
    assert state.units("TSI", "market") == 5 and state.units("TSI", "p:cy") == 1
    assert [e.player for e in of_type(events, ev.PresidentChanged)] == ["ann"]
    refused(state, "cy", cmd.SellShares(corp="TSI"), "MARKET_FULL")           # half is there now


# ---- 5.36: activation counts shares bought, wherever they are now ---------------------------------
def test_5_36_shares_the_president_sold_to_the_market_still_count_towards_the_50_percent():
    state = given(tsi_held({"ann": 2}), *launched("RU", "ann", 67, 4, 4, units=4, active=False))
    state, _ = when(state, "ann", cmd.SellShares(corp="RU", count=1))        # 5.21: the President may
    state, _ = when(state, "ann", cmd.Pass())
    assert "RU" not in state.active and state.units("RU", "ipo") == 6
    state, events = when(state, "bob", cmd.BuyShare(corp="RU"))
    assert of_type(events, ev.CorporationActivated) and state.cash("c:RU") == 670


# ---- 5 and 6: the operating order, stacking within a box -------------------------------------------
def test_6_corporations_in_one_box_operate_top_to_bottom_in_the_order_they_entered_it():
    state = given(tsi_held({"ann": 2}), *launched("RU", "bob", 100, 1, 4))
    assert corporations_in_order(state) == ["c:TSI", "c:RU"]                  # RU entered under TSI
    state = given(state, ev.StockPriceMoved(corp="TSI", row=1, column=5), ev.StockPriceMoved(corp="TSI", row=1,
                                                                                             column=4))
    assert corporations_in_order(state) == ["c:RU", "c:TSI"]                  # back in: now underneath
    state = given(state, *launched("LE", "cy", 88, 2, 4))
    assert corporations_in_order(state) == ["c:RU", "c:TSI", "c:LE"]          # a lower price goes later


def test_5_a_token_that_cannot_move_keeps_its_place_in_the_stack():
    state = given(tsi_held({"ann": 2}), *launched("RU", "bob", 100, 1, 4))
    top_row = [ev.StockPriceMoved(corp="TSI", row=1, column=4, why="all shares held")]  # blocked: no move
    assert corporations_in_order(given(state, *top_row)) == ["c:TSI", "c:RU"]


def test_5_5_all_shares_held_tokens_rise_in_operating_order_and_keep_their_stacking():
    state = given(tsi_held({"ann": 5, "bob": 5}), *launched("RU", "cy", 100, 1, 4, units=5),
                  ev.SharesMoved(corp="RU", source="ipo", destination="p:dee", units=5))
    for player in ("ann", "bob", "cy", "dee"):
        state, _ = when(state, player, cmd.Pass())
    assert state.round == "operating" and price(state, "TSI") == price(state, "RU") == 113
    assert corporations_in_order(state) == ["c:TSI", "c:RU"]


def test_7_38_a_forced_sale_changes_the_order_of_the_corporations_still_to_operate():
    state = given(tsi_buying(cash=0), *bought_out(1, 10), ev.PhaseChanged(phase=2),
                  ev.ShipRemoved(ship="P", to="gone"), ev.CashMoved(source="p:ann", destination="bank", amount=400),
                  *launched("RU", "ann", 67, 4, 4, units=4), *launched("LE", "bob", 67, 4, 4))
    assert corporations_in_order(state) == ["c:TSI", "c:RU", "c:LE"]
    state, _ = when(state, "ann", cmd.EmergencySell(corp="RU", count=2))
    assert price(state, "RU") == 58
    assert corporations_in_order(state) == ["c:TSI", "c:LE", "c:RU"]          # LE now goes before RU
    state, _ = when(state, "ann", cmd.BuyShip(phase=2, kind="scout"))
    state, _ = when(state, "ann", cmd.FinishOperating())
    assert corporations_in_order(state) == ["c:LE", "c:RU"]


# ---- 8, 8.11: the golden parachute, Full and Short -------------------------------------------------
def league_choices(short: bool, when_: str):
    """The League formed (President dee); Independent 3 (dee, a ship, $101) and 4 (ann, no ship, $101)
    are offered a merger `when_`."""
    state = given(game(short=short), *ALL_SOLD, ev.PhaseChanged(phase=3),
                  ev.ShipBought(ship="2.01", buyer="i:3", kind="scout", price=0),
                  ev.CashMoved(source="bank", destination="i:3", amount=101),
                  ev.CashMoved(source="bank", destination="i:4", amount=101),
                  *launched("AL", "dee", 125, 1, 6),
                  ev.DecisionsQueued(decisions=[["merge", "dee", 3, when_], ["merge", "ann", 4, when_]]))
    state, _ = when(state, "dee", cmd.MergeIndependent(independent=3))
    state, _ = when(state, "ann", cmd.MergeIndependent(independent=4))
    return state


def test_8_at_the_leagues_formation_every_merging_owner_gets_half_the_treasury_in_both_games():
    for short in (False, True):
        state = league_choices(short, "formation")
        assert state.cash("p:dee") == 1800 // 4 + 51 and state.cash("p:ann") == 1800 // 4 + 51
        assert state.cash("c:AL") == 50 + 50


def test_8_11_a_later_merger_pays_half_only_in_the_full_game_and_only_with_a_ship():
    full = league_choices(False, "later")
    assert full.cash("p:dee") == 450 + 51 and full.cash("p:ann") == 450          # Independent 4 had no ship
    short = league_choices(True, "later")
    assert short.cash("p:dee") == 450 and short.cash("p:ann") == 450 and short.cash("c:AL") == 202


# ---- 8.13: excess ships after a merger -------------------------------------------------------------
def test_8_13_the_league_returns_excess_ships_of_its_choice_after_a_merger():
    state = given(league_formed_with_declines(),
                  *[ev.ShipBought(ship=f"3.0{n}", buyer="c:AL", kind="tug", price=0) for n in (2, 3, 4, 5)],
                  ev.DecisionsQueued(decisions=[["merge", "dee", 3, "later"]]))
    state, events = when(state, "dee", cmd.MergeIndependent(independent=3))    # 4 League ships + 2.02, 2.08
    assert state.must_discard == ["c:AL"] and GAME.to_act(state) == ["dee"]
    refused(state, "ann", cmd.FinishOperating(), "NOT_YOUR_TURN")
    state, _ = when(state, "dee", cmd.DiscardShip(ship="3.02"))               # an old one, not one received
    assert state.must_discard == ["c:AL"]
    state, _ = when(state, "dee", cmd.DiscardShip(ship="2.08"))
    assert state.must_discard == [] and len(state.ships_of("c:AL")) == 4
    assert state.ships["3.02"].owner == "bank" and state.cash("c:AL") >= 0


# ---- 9: bankruptcy ends the game at once; the bankrupt player ranks last -------------------------
def test_9_a_bankruptcy_ends_the_game_at_once_and_the_bankrupt_player_ranks_last():
    state = given(tsi_buying(cash=0), *bought_out(1, 10), ev.PhaseChanged(phase=2),
                  ev.ShipRemoved(ship="P", to="gone"), ev.CashMoved(source="p:ann", destination="bank", amount=440),
                  *launched("RU", "ann", 100, 1, 4, units=5),
                  ev.SharesMoved(corp="RU", source="ipo", destination="market", units=5))   # 5.24: unsellable
    refused(state, "ann", cmd.EmergencySell(corp="RU", count=1), "MARKET_FULL")
    assert max(GAME.outcome(given(state, ev.GameFinished(reason="x"))).standings, key=lambda s: s.score).player \
        == "ann"                                              # the richest on paper...
    state, _ = when(state, "ann", cmd.DeclareBankruptcy())
    outcome = GAME.outcome(state)
    assert outcome.standings[-1].player == "ann" and "bankrupt" in outcome.reason   # ...ranks last
    refused(state, "bob", cmd.Pass(), "GAME_OVER")


# ---- Optional rules --------------------------------------------------------------------------------
def test_optional_weaker_tsi_starts_tsi_at_the_chosen_price_with_ten_times_that_capital():
    for weaker, capital in ((None, 1000), (89, 890), (78, 780), (67, 670)):
        state = given(game(weaker_tsi=weaker), *[ev.CompanyAcquired(company=n, owner="p:bob", price=0)
                                                 for n in range(10)],
                      ev.SharesMoved(corp="TSI", source="ipo", destination="p:bob", units=3))   # with 7-9
        state, _ = when(state, "ann", cmd.BuyCompany())                           # company 10: TSI's 20 %
        assert state.par["TSI"] == capital // 10 and price(state, "TSI") == capital // 10
        assert state.president["TSI"] == "ann" and state.cash("c:TSI") == capital


def test_optional_two_player_game_uses_certificate_limits_33_and_26():
    from t2038.stock import certificate_limit
    assert certificate_limit(game(("ann", "bob"), two_player=True)) == 33
    assert certificate_limit(game(("ann", "bob"), two_player=True, short=True)) == 26


def test_optional_stock_repurchases_growth_box_shares_cost_the_higher_of_par_and_price():
    def growth_ru(**options):
        state = tsi_held({"ann": 2}, **options)
        return given(state, ev.SharesMoved(corp="RU", source="ipo", destination="p:ann", units=2),
                     ev.CorporationLaunched(corp="RU", player="ann", par=67, kind="growth"),
                     ev.SharesMoved(corp="RU", source="ipo", destination="growth", units=8),
                     ev.StockPriceMoved(corp="RU", row=1, column=4), ev.CorporationActivated(corp="RU"),
                     ev.StockTurnEnded(player="ann", passed=True, next_player="bob"))
    normal, _ = when(growth_ru(), "bob", cmd.BuyShare(corp="RU", source="growth"))
    assert normal.cash("c:RU") == 67 and normal.cash("p:bob") == 450 - 67
    optional, _ = when(growth_ru(stock_repurchases=True), "bob", cmd.BuyShare(corp="RU", source="growth"))
    assert optional.cash("c:RU") == 100 and optional.cash("p:bob") == 450 - 100


def test_optional_stock_repurchases_the_treasury_earns_nothing_on_market_shares():
    for option, treasury_gets in ((False, 2 * 10), (True, 0)):
        state = given(game(stock_repurchases=option), *ALL_SOLD, *launched("TSI", "ann", 100, 1, 4, units=2),
                      ev.SharesMoved(corp="TSI", source="ipo", destination="p:bob", units=3),
                      ev.SharesMoved(corp="TSI", source="ipo", destination="market", units=2),
                      ev.RoundStarted(kind="operating", set_number=2, or_number=1),
                      ev.OperatorStarted(operator="c:TSI", price=100),
                      ev.RouteStarted(ship="P", hex="K9", movement=4, holds=0),
                      ev.RouteEnded(ship="P", value=100, delivered=True))
        state, _ = when(state, "ann", cmd.DeclareEarnings(choice="full"))
        assert state.cash("c:TSI") == treasury_gets and state.cash("p:bob") == 450 + 30


def test_optional_cutthroat_leaves_four_phase_iv_ships():
    assert sum(1 for sid in game(cutthroat=True).ships if sid.startswith("4.")) == 4
    assert sum(1 for sid in game().ships if sid.startswith("4.")) == 5


@pytest.mark.parametrize("options", [{"two_player": True, "weaker_tsi": 78, "stock_repurchases": True},
                                     {"two_player": True, "variant": "short", "cutthroat": True}])
def test_optional_rules_together_play_a_whole_two_player_game_with_the_invariants_after_every_event(options):
    from starbase_rules.playout import playout
    result = playout(GAME, ["ann", "bob"], seed=21, options=options)
    assert result.outcome is not None and {s.player for s in result.outcome.standings} == {"ann", "bob"}
    assert result.state.options.two_player and result.state.set_number >= 2


# ---- 8.14: the League's round of formation ---------------------------------------------------------
def test_8_14_formed_before_any_corporation_operated_the_league_operates_but_not_with_a_ship_that_flew():
    state = given(tsi_held({"ann": 2}), *bought_out(1, 10, buyer="bank"), ev.PhaseChanged(phase=2),
                  ev.ShipRemoved(ship="P", to="gone"),
                  *[ev.ShipBought(ship=f"2.{n:02d}", buyer=f"i:{1 + n % 6}", kind="scout", price=0)
                    for n in range(1, 11)],
                  ev.CashMoved(source="bank", destination="i:2", amount=300),
                  ev.RoundStarted(kind="operating", set_number=2, or_number=1),
                  ev.OperatorStarted(operator="i:1"),
                  ev.RouteStarted(ship="2.06", hex="G7", movement=6, holds=2, pilot="i:1", pilot_is_owner=True),
                  ev.RouteEnded(ship="2.06", value=0, delivered=False),
                  ev.EarningsDeclared(operator="i:1", choice="retain", earnings=0, retained=0, per_share=0),
                  ev.OperatorFinished(operator="i:1"), ev.OperatorStarted(operator="i:2"),
                  ev.EarningsDeclared(operator="i:2", choice="retain", earnings=0, retained=0, per_share=0))
    state, _ = when(state, "cy", cmd.BuyShip(phase=3, kind="scout"))          # Ice Finder starts Phase III
    state, events = when(state, "dee", cmd.FormLeague())
    assert not of_type(events, ev.LeagueSkipsRound)                          # no corporation has begun
    while state.pending:
        player, number = state.pending[0][1], state.pending[0][2]
        answer = cmd.MergeIndependent(independent=1) if number == 1 else cmd.Decline()
        state, _ = when(state, player, answer)
    assert state.ships["2.06"].owner == "c:AL"                                # Fast Buck's ship, flown already
    while state.operator != "c:AL":
        player = GAME.to_act(state)[0]
        answer = cmd.DeclareEarnings(choice="retain") if state.step == "routes" else cmd.FinishOperating()
        state, _ = when(state, player, answer)
    assert "c:TSI" not in state.done_operators                               # $125 goes before TSI's $100
    refused(state, "dee", cmd.StartRoute(ship="2.06", base="H10"), "SHIP_ALREADY_FLEW")


# ---- 9: the bank breaking in a stock round: its two operating rounds are still played --------------
def test_9_the_bank_broken_by_a_sale_still_plays_the_sets_two_operating_rounds():
    state = tsi_held({"ann": 4}, market=1)
    state = given(state, ev.CashMoved(source="bank", destination="p:bob", amount=state.cash("bank") - 50))
    state, _ = when(state, "ann", cmd.SellShares(corp="TSI", count=1))
    assert state.bank_broken and state.round == "stock"
    seen = []
    while state.round != "over":
        if (state.round, state.or_number) not in seen:
            seen.append((state.round, state.or_number))
        player = GAME.to_act(state)[0]
        state, _ = when(state, player, GAME.default_command(state, player))
    assert seen == [("stock", 0), ("operating", 1), ("operating", 2)] and state.set_number == 2
    assert GAME.outcome(state).reason == "the bank ran out of money"


# ---- 5.22, 5.3, 5.4: sales, then at most one purchase; selling is not passing -------------------
def test_5_22_sales_come_first_and_the_one_purchase_ends_the_turn():
    state = tsi_held({"ann": 4}, market=1)
    state, _ = when(state, "ann", cmd.SellShares(corp="TSI", count=1))
    state, _ = when(state, "ann", cmd.LaunchCorporation(corp="RU", par=67))  # a purchase after the sale
    assert state.turn == "bob"
    refused(state, "ann", cmd.SellShares(corp="TSI", count=1), "NOT_YOUR_TURN")   # nothing after it
    refused(state, "ann", cmd.BuyShare(corp="RU"), "NOT_YOUR_TURN")


def test_5_4_a_turn_with_only_sales_is_not_a_pass_so_the_round_goes_on():
    state = tsi_held({"ann": 2, "dee": 3}, market=1)
    for player in ("ann", "bob", "cy"):
        state, _ = when(state, player, cmd.Pass())
    state, _ = when(state, "dee", cmd.SellShares(corp="TSI", count=1))
    state, _ = when(state, "dee", cmd.Pass())
    assert state.round == "stock" and state.passes == 0
    for player in ("ann", "bob", "cy", "dee"):
        state, _ = when(state, player, cmd.Pass())
    assert state.round == "operating" and state.first_player == "ann"        # 5.5: left of dee, the seller


# ---- 7.4 and the chart: private 7's free base goes on any explored, unclaimed tile ----------------
def test_7_4_private_7_places_its_base_out_of_range_where_a_bought_base_may_not_go():
    from .test_purchases_and_counters import corp_buying
    state = given(corp_buying(), ev.CompanyAcquired(company=7, owner="c:TSI"))
    refused(state, "ann", cmd.PlaceBase(hex="A3"), "OUT_OF_RANGE")
    state, _ = when(state, "ann", cmd.UsePrivate(company=7, hex="A3"))
    assert state.bases["A3"] == "TSI" and "A3" in state.flipped and state.cash("c:TSI") == 1000
    refused(state, "ann", cmd.UsePrivate(company=9, hex="K7", mine=0), "NOT_YOUR_PRIVATE")


# ---- 8.12: the League's reserved claims -------------------------------------------------------------
def test_8_12_the_league_may_not_buy_an_independents_claim_with_a_reserved_marker():
    from .helpers import tile_of
    state = league_formed_with_declines()                                    # six Independents outside
    hexes = ["K7", "L8", "K11", "K13"]
    for hex_ in hexes:
        state = given(state, ev.HexExplored(hex=hex_, tile=tile_of("N20", state)))
    state = given(state, *[ev.ClaimPlaced(holder="c:AL", hex=h, mine=0, price=0) for h in hexes[:3]],
                  ev.ClaimPlaced(holder="i:1", hex="K13", mine=0, price=60),
                  ev.OperatorFinished(operator="c:TSI"), ev.OperatorStarted(operator="c:AL", price=125),
                  ev.EarningsDeclared(operator="c:AL", choice="retain", earnings=0, retained=0, per_share=0),
                  ev.CashMoved(source="bank", destination="c:AL", amount=500))
    assert state.counters_left["AL"]["claim"] == 12                          # 15 less 3: all reserved
    refused(state, "dee", cmd.BuyIndependentClaim(hex="K13", mine=0), "NO_CLAIMS_LEFT")
    state = given(state, ev.CompanyAcquired(company=6, owner="closed"))      # one Independent fewer
    state, _ = when(state, "dee", cmd.BuyIndependentClaim(hex="K13", mine=0))
    assert state.pending and state.pending[0][1] == "bob"                    # bob's consent is asked
