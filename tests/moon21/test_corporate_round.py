"""Corporate rounds (rule 10), with the rulebook's issuing examples."""
from moon21 import commands as K
from moon21 import events as E
from moon21.corporate import issue_limit
from moon21.game import GAME


def cr_turn(t, corp, order=None):
    return t.given(E.RoundStarted(kind="CR", set_no=1, order=order or [corp]), E.CorporateTurnStarted(corp=corp))


def test_issuing_example_1_beth_may_issue_three_vh_shares(table):
    t = table(("beth", "paul", "dennis")).stock_round().start("beth", "VH", 70, extra_shares=1)
    cr_turn(t, "VH")
    assert issue_limit(t.state, "VH") == 3
    assert t.refused("beth", K.IssueShares(count=4)) == "ISSUE_LIMIT"
    t.do("beth", K.IssueShares(count=3))
    assert t.state.shares.held_percent("VH", "pool") == 30
    assert t.cash("c:VH") == 140 + 70 + 3 * 70
    assert t.price("VH") == 70                  # not floated when issuing: price unchanged
    assert t.state.corps["VH"].floated          # 60 % left the IPO


def test_issuing_example_2_paul_may_issue_one_swp_share(table):
    t = table(("beth", "paul", "dennis")).stock_round().start("paul", "SWP", 80, extra_shares=3)
    t.given(E.SharesSold(seller="p:paul", certs=["SWP_2", "SWP_3"], price=80))
    assert t.state.shares.held_percent("SWP", "p:paul") == 30
    cr_turn(t, "SWP")
    assert issue_limit(t.state, "SWP") == 1


def test_issue_by_a_floated_corporation_drops_the_price_once(table):
    t = table().stock_round().start("ann", "VH", 70, extra_shares=4).given(E.CorporationFloated(corp="VH"))
    cr_turn(t, "VH")
    t.do("ann", K.IssueShares(count=1))
    t.do("ann", K.IssueShares(count=1))
    assert t.price("VH") == 60


def test_corporation_may_not_buy_its_own_ipo_nor_its_own_shares_after_issuing(table):
    t = table().stock_round().start("ann", "VH", 70, extra_shares=4).start("bob", "SSF", 60)
    t.given(E.SharesSold(seller="p:ann", certs=["VH_4"], price=70))
    cr_turn(t, "VH", order=["VH", "SSF"])
    assert t.refused("ann", K.BuyShare(corp="VH", source="ipo")) == "OWN_IPO"
    t.do("ann", K.IssueShares(count=1))
    assert t.refused("ann", K.BuyShare(corp="VH", source="pool")) == "ISSUED_THIS_ROUND"
    t.do("ann", K.BuyShare(corp="SSF", source="ipo"))
    assert t.state.shares.location["SSF_1"] == "c:VH"
    assert t.refused("ann", K.IssueShares(count=1)) == "NOT_YOUR_TURN"


def test_corporate_sale_pays_the_treasury_and_buying_after_selling_is_refused(table):
    t = table().stock_round().start("ann", "VH", 70).start("bob", "SSF", 60).hand("c:VH", "SSF", [1, 2])
    cr_turn(t, "VH")
    cash = t.cash("c:VH")
    t.do("ann", K.SellShares(corp="SSF", count=2, seller="corporation"))
    assert t.cash("c:VH") == cash + 120
    assert t.refused("ann", K.BuyShare(corp="SSF", source="pool")) == "SOLD_THIS_ROUND"
    assert t.refused("bob", K.Pass()) == "NOT_YOUR_TURN"


def test_each_started_corporation_gets_one_turn_in_descending_price_order_then_prices_adjust(table):
    t = table(cash=2000).stock_round().start("ann", "VH", 90, extra_shares=8).start("bob", "SSF", 60, extra_shares=2)
    t.given(E.SharesSold(seller="p:bob", certs=["SSF_2"], price=60))
    t.given(E.OperatingTurnStarted(corp="SSF"), E.OperatingTurnEnded(corp="SSF"))
    t.given(E.CorporationFloated(corp="VH"), E.CorporationFloated(corp="SSF"))
    t.given(E.StockTurnEnded(player="ann", passed=True), E.StockTurnEnded(player="bob", passed=True))
    t.do("cy", K.Pass())
    assert t.state.kind == "CR" and t.state.cr.order == ["VH", "SSF"]
    assert GAME.to_act(t.state) == ["ann"]
    t.do("ann", K.Pass())
    t.do("bob", K.Pass())
    assert t.state.kind == "OR"
    assert t.price("VH") == 100        # 100 % held by players: up one row
    assert t.price("SSF") == 50        # shares in the pool: down one row
