"""Stock rounds (rule 9): selling, buying, starting, swapping, limits, presidency, end of round."""
from moon21 import commands as K
from moon21 import events as E
from moon21.game import GAME


def sr(table, players=("ann", "bob", "cy"), set_no=1):
    return table(players).stock_round(set_no)


def test_starting_a_corporation_buys_the_presidents_certificate_at_twice_par(table):
    t = sr(table)
    t.do("ann", K.StartCorporation(corp="VH", par=70))
    assert t.state.shares.president_of("VH") == "p:ann"
    assert t.cash("p:ann") == 540 - 140 and t.cash("c:VH") == 140
    assert t.price("VH") == 70 and t.state.market.positions["VH"] == (4, 2)
    assert GAME.to_act(t.state) == ["bob"]


def test_start_refusals(table):
    t = sr(table)
    assert t.refused("ann", K.StartCorporation(corp="VH", par=100)) == "ILLEGAL_PAR"
    assert t.refused("ann", K.StartCorporation(corp="KR", par=60)) == "HELD_BACK"
    assert t.refused("ann", K.StartCorporation(corp="XX", par=60)) == "UNKNOWN_CORPORATION"
    assert t.refused("ann", K.BuyShare(corp="VH")) == "NOT_STARTED"
    t.do("ann", K.StartCorporation(corp="VH", par=60))
    assert t.refused("bob", K.StartCorporation(corp="VH", par=60)) == "ALREADY_STARTED"
    poor = table(("ann", "bob"), cash=100).stock_round()
    assert poor.refused("ann", K.StartCorporation(corp="VH", par=60)) == "INSUFFICIENT_FUNDS"


def test_held_back_corporation_may_start_from_stock_round_3(table):
    t = sr(table, set_no=3)
    t.do("ann", K.StartCorporation(corp="KR", par=60))
    assert t.state.corps["KR"].started


def test_ipo_purchase_pays_the_treasury_and_pool_purchase_pays_the_bank(table):
    t = sr(table).start("ann", "VH", 70).hand("p:bob", "VH", [1, 2]).given(
        E.SharesSold(seller="p:bob", certs=["VH_2"], price=70))
    bank = t.cash("bank")
    t.do("ann", K.BuyShare(corp="VH", source="ipo"))
    assert t.cash("c:VH") == 140 + 140 + 70
    t.do("bob", K.Pass())
    t.do("cy", K.BuyShare(corp="VH", source="pool"))
    assert t.cash("bank") == bank + 70 and t.cash("c:VH") == 350


def test_corporation_floats_when_half_its_shares_left_the_ipo(table):
    t = sr(table).start("ann", "VH", 60, extra_shares=2)
    events = t.do("ann", K.BuyShare(corp="VH"))
    assert "CorporationFloated" in [e.type for e in events]


def test_may_not_buy_what_you_sold_this_round(table):
    t = sr(table).start("ann", "VH", 60).hand("p:bob", "VH", [1, 2])
    t.do("ann", K.Pass())
    t.do("bob", K.SellShares(corp="VH"))
    assert t.refused("bob", K.BuyShare(corp="VH")) == "SOLD_THIS_ROUND"


def test_no_price_drop_before_the_corporation_operated_then_one_drop_per_turn(table):
    t = sr(table).start("ann", "VH", 70).hand("p:bob", "VH", [1, 2, 3, 4])
    t.do("ann", K.Pass())
    t.do("bob", K.SellShares(corp="VH"))
    assert t.price("VH") == 70
    t.do("bob", K.Pass())
    t.given(E.OperatingTurnStarted(corp="VH"), E.OperatingTurnEnded(corp="VH"))
    t.do("cy", K.Pass())
    t.do("ann", K.Pass())
    t.do("bob", K.SellShares(corp="VH"))
    t.do("bob", K.SellShares(corp="VH"))
    assert t.price("VH") == 60                      # one row down, once this turn


def test_pool_may_hold_at_most_half(table):
    t = sr(table).start("ann", "VH", 60).hand("p:bob", "VH", [1, 2, 3, 4, 5, 6])
    t.do("ann", K.Pass())
    t.do("bob", K.SellShares(corp="VH", count=5))
    assert t.refused("bob", K.SellShares(corp="VH")) == "POOL_FULL"


def test_selling_refusals(table):
    t = sr(table).start("ann", "VH", 60)
    assert t.refused("ann", K.SellShares(corp="VH")) == "CANNOT_SELL_PRESIDENCY"
    assert t.refused("ann", K.SellShares(corp="SSF")) == "NOT_STARTED"
    assert t.refused("ann", K.SellShares(corp="VH", count=3)) == "NOT_ENOUGH_SHARES"
    assert t.refused("ann", K.SellShares(corp="VH", count=0)) == "INVALID_COUNT"


def test_holding_limit_fifty_percent(table):
    t = sr(table).start("ann", "VH", 60).hand("p:ann", "VH", [1, 2, 3])
    assert t.refused("ann", K.BuyShare(corp="VH")) == "HOLDING_LIMIT"


def test_two_player_holding_limit_is_sixty_percent(table):
    t = sr(table, players=("ann", "bob")).start("ann", "VH", 60).hand("p:ann", "VH", [1, 2, 3])
    t.do("ann", K.BuyShare(corp="VH"))
    assert t.state.shares.held_percent("VH", "p:ann") == 60


def test_certificate_limit_counts_privates(table):
    t = table(("ann", "bob", "cy", "dan", "eve"), cash=2000).stock_round()      # limit 10
    t.start("ann", "VH", 60).hand("p:ann", "VH", [1, 2, 3]).start("bob", "SSF", 60)
    t.hand("p:ann", "SSF", [1, 2, 3, 4]).given(*[E.PrivateBought(player="ann", private=p, price=0)
                                                  for p in ("P2", "P3")])
    assert t.refused("ann", K.BuyShare(corp="VH")) == "CERTIFICATE_LIMIT"
    assert t.refused("ann", K.StartCorporation(corp="SWP", par=60)) == "CERTIFICATE_LIMIT"


def test_presidency_changes_only_when_someone_holds_more(table):
    t = sr(table).start("ann", "VH", 60).hand("p:bob", "VH", [1])
    t.do("ann", K.Pass())
    t.do("bob", K.BuyShare(corp="VH"))                   # 20 % vs 20 %: no change
    assert t.state.shares.president_of("VH") == "p:ann"
    t.do("cy", K.Pass())
    t.do("ann", K.Pass())
    events = t.do("bob", K.BuyShare(corp="VH"))          # 30 % vs 20 %
    assert "PresidencyChanged" in [e.type for e in events]
    assert t.state.shares.president_of("VH") == "p:bob"
    assert t.state.shares.held_percent("VH", "p:ann") == 20 and len(t.state.shares.certs("VH", "p:ann")) == 2


def test_president_may_sell_the_presidency_to_a_holder_of_two_shares(table):
    t = sr(table).start("ann", "VH", 60, extra_shares=1).hand("p:cy", "VH", [2, 3]).hand("p:bob", "VH", [4, 5])
    t.do("ann", K.SellShares(corp="VH", count=2))
    # bob and cy tie on 20 %: bob sits closer to ann's left
    assert t.state.shares.president_of("VH") == "p:bob"
    assert t.state.shares.held_percent("VH", "p:ann") == 10


def test_round_ends_when_all_pass_consecutively_priority_left_of_last_actor(table):
    t = sr(table)
    t.do("ann", K.Pass())
    t.do("bob", K.StartCorporation(corp="VH", par=60))
    t.do("cy", K.Pass())
    t.do("ann", K.Pass())
    assert t.state.kind == "SR"
    t.do("bob", K.Pass())
    assert t.state.kind != "SR"
    assert t.state.priority == "cy"


def test_swap_a_certificate_with_the_treasury_of_a_corporation_you_preside(table):
    t = sr(table).start("ann", "VH", 90).start("bob", "SSF", 60).hand("p:ann", "SSF", [1]).hand(
        "c:VH", "SSF", [2])
    assert t.refused("ann", K.SwapCertificate(corp="SSF", take="SSF_2", give="SSF_1")) == "NOT_PRESIDENT"
    assert t.refused("ann", K.SwapCertificate(corp="VH", take="SSF_2", give="VH_0")) == "PRESIDENTS_CERTIFICATE"
    assert t.refused("ann", K.SwapCertificate(corp="VH", take="SSF_3", give="SSF_1")) == "NOT_IN_TREASURY"
    t.hand("p:ann", "VH", [1])
    t.do("ann", K.SwapCertificate(corp="VH", take="SSF_2", give="VH_1"))
    assert t.state.shares.location["SSF_2"] == "p:ann" and t.state.shares.location["VH_1"] == "c:VH"
    t.do("bob", K.Pass()); t.do("cy", K.Pass())
    assert t.refused("ann", K.SwapCertificate(corp="VH", take="VH_1", give="SSF_1")) == "ALREADY_SWAPPED"


def test_swap_may_break_the_holding_limit(table):
    t = sr(table).start("ann", "VH", 90).hand("p:ann", "VH", [1, 2, 3]).start("bob", "SSF", 60)
    t.given(E.ShareBought(buyer="c:VH", cert="VH_4", source="ipo", price=90))   # VH holds one of its own
    t.hand("p:ann", "SSF", [1])
    t.do("ann", K.SwapCertificate(corp="VH", take="VH_4", give="SSF_1"))
    assert t.state.shares.held_percent("VH", "p:ann") == 60


def test_tunnel_company_free_share_in_stock_rounds_2_to_4_only(table):
    t = sr(table).start("bob", "VH", 60).hand("p:bob", "VH", [1]).given(
        E.PrivateBought(player="ann", private="P6", price=100), E.SharesSold(seller="p:bob", certs=["VH_1"], price=60))
    assert t.refused("ann", K.TakeTunnelShare(corp="VH")) == "WRONG_ROUND"
    t.given(E.RoundStarted(kind="SR", set_no=2))
    assert t.refused("bob", K.TakeTunnelShare(corp="VH")) in ("NOT_YOUR_TURN", "NOT_OWNER")
    assert t.refused("ann", K.TakeTunnelShare(corp="SSF")) == "NO_SHARE_AVAILABLE"
    t.do("ann", K.TakeTunnelShare(corp="VH"))
    assert t.state.shares.location["VH_1"] == "p:ann" and t.state.private_owner["P6"] == "closed"
    assert GAME.to_act(t.state) == ["ann"]              # not a buy: the turn goes on


def test_not_your_turn(table):
    t = sr(table)
    assert t.refused("bob", K.Pass()) == "NOT_YOUR_TURN"
    assert t.refused("zed", K.Pass()) == "NOT_A_PLAYER"


def test_over_the_certificate_limit_must_sell_before_passing(table):
    t = table(("ann", "bob", "cy", "dan", "eve"), cash=2000).stock_round()
    t.start("bob", "VH", 60).start("cy", "SSF", 60).start("dan", "SWP", 60)
    t.hand("p:ann", "VH", [1, 2, 3, 4]).hand("p:ann", "SSF", [1, 2, 3, 4]).hand("p:ann", "SWP", [1, 2, 3])
    assert t.refused("ann", K.Pass()) == "OVER_CERTIFICATE_LIMIT"
    t.do("ann", K.SellShares(corp="SWP"))
    t.do("ann", K.Pass())


def test_swap_needs_a_certificate_you_hold(table):
    t = sr(table).start("ann", "VH", 90).start("bob", "SSF", 60).hand("c:VH", "SSF", [2])
    assert t.refused("ann", K.SwapCertificate(corp="VH", take="SSF_2", give="SSF_1")) == "NOT_YOURS"


def test_rule_9_taking_the_tunnel_share_is_an_action_that_earns_another_turn(table):
    """Rule 9 (a player who takes any action is guaranteed another turn) and 9.5 (priority to the
    left of the last player to act). Given ann opens stock round 2 by taking P6's free share and
    passing, when bob and cy pass, then the round goes on to ann; it ends with the priority left of ann."""
    t = sr(table).start("bob", "VH", 60).hand("p:bob", "VH", [1]).given(
        E.PrivateBought(player="ann", private="P6", price=100), E.SharesSold(seller="p:bob", certs=["VH_1"], price=60),
        E.RoundStarted(kind="SR", set_no=2))
    assert GAME.to_act(t.state) == ["ann"]
    t.do("ann", K.TakeTunnelShare(corp="VH"))
    t.do("ann", K.Pass())
    t.do("bob", K.Pass())
    t.do("cy", K.Pass())
    assert t.state.kind == "SR" and GAME.to_act(t.state) == ["ann"]
    t.do("ann", K.Pass())
    assert t.state.kind != "SR" and t.state.priority == "bob"


def test_9_2_a_swap_is_the_buy_action_so_it_cannot_take_a_share_of_a_corporation_sold_this_round(table):
    """Rule 9.2: given ann sold SSF earlier this stock round, when she swaps for VH's SSF share,
    then it is refused like a purchase would be; a share of another corporation may be taken."""
    t = sr(table).start("ann", "VH", 90).start("bob", "SSF", 60).hand("p:ann", "SSF", [1, 3]).hand(
        "c:VH", "SSF", [2]).hand("c:VH", "VH", [2]).hand("p:ann", "VH", [1])
    t.do("ann", K.SellShares(corp="SSF", count=1))
    assert t.refused("ann", K.SwapCertificate(corp="VH", take="SSF_2", give="VH_1")) == "SOLD_THIS_ROUND"
    t.do("ann", K.SwapCertificate(corp="VH", take="VH_2", give="SSF_1"))
    assert t.state.shares.location["VH_2"] == "p:ann" and t.state.shares.location["SSF_1"] == "c:VH"
