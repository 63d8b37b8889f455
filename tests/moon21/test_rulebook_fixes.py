"""Rules fixed after review (issue 10): each test is named after the rule it checks."""
import pytest

from moon21 import board as bd
from moon21 import commands as K
from moon21 import events as E
from moon21.game import GAME
from starbase_rules.contract import RuleViolation
from tests.moon21.board.conftest import MINERALS


def vh_buying_from_ssf(table, ssf_president="ann"):
    """VH (ann) buys; SSF holds a type 2 at each base."""
    t = table(("ann", "bob"), cash=2000).stock_round().start("ann", "VH", 70, extra_shares=3)
    t.start(ssf_president, "SSF", 60)
    t.given(E.CorporationFloated(corp="VH"), E.TransportBought(corp="SSF", base="LB", transport=2, price=0),
            E.TransportBought(corp="SSF", base="SP", transport=2, price=0),
            E.RoundStarted(kind="OR", set_no=1, or_no=1), E.OperatingTurnStarted(corp="VH"),
            E.StepFinished(corp="VH", step="tiles", next_step="buy"))
    return t


def test_11_6_a_transport_bought_from_another_corporation_comes_from_the_base_the_buyer_names(table):
    t = vh_buying_from_ssf(table)
    events = t.do("ann", K.BuyTransport(base="LB", from_corp="SSF", from_base="SP", transport=2, price=5))
    bought = next(e for e in events if e.type == "TransportBought")
    assert (bought.from_corp, bought.from_base) == ("SSF", "SP")
    assert t.state.corps["SSF"].transports == {"LB": [2], "SP": []}     # its local base keeps its copy


def test_11_6_a_purchase_that_does_not_say_which_of_two_bases_is_refused(table):
    t = vh_buying_from_ssf(table)
    assert t.refused("ann", K.BuyTransport(base="LB", from_corp="SSF", transport=2, price=5)) == "WHICH_BASE"
    assert t.refused("ann", K.BuyTransport(base="LB", from_corp="SSF", from_base="SP", transport=3, price=5)) \
        == "NO_SUCH_TRANSPORT"


def test_11_6_legal_actions_offer_each_of_the_sellers_bases(table):
    t = vh_buying_from_ssf(table)
    offers = {(a["from_base"], a["base"]) for a in GAME.legal_actions(t.state, "ann")
              if a["type"] == "BuyTransport" and a["from_corp"] == "SSF"}
    assert offers == {("LB", "LB"), ("LB", "SP"), ("SP", "LB"), ("SP", "SP")}


def test_11_6_a_proposal_to_another_president_keeps_the_named_base_until_accepted(table):
    t = vh_buying_from_ssf(table, ssf_president="bob")
    t.do("ann", K.BuyTransport(base="SP", from_corp="SSF", from_base="SP", transport=2, price=9))
    assert t.state.op.deal["from_base"] == "SP"
    t.do("bob", K.AnswerDeal(accept=True))
    assert t.state.corps["SSF"].transports == {"LB": [2], "SP": []}
    assert t.state.corps["VH"].transports["SP"] == [2]


def test_11_2_2_a_depot_tile_may_be_upgraded_by_a_route_to_an_edge_where_only_the_new_tile_has_road():
    """VH's Space Port base reaches D10 at its edge 4 (the Space Port spoke), where the yellow 57M
    (road 0-3) has no road: 'a route to the tile, not necessarily to new road on the tile' (11.2.2)."""
    board = bd.new_board(dict(MINERALS))
    bd.apply_lay(board, "D10", "57M", 0)
    assert bd.check_lay(board, "VH", "SP", "D10", "441M", 3, phase="3") == 0           # 0-3 kept, 4 added
    assert {"hex": "D10", "tile": "441M", "rotation": 3, "cost": 0} in bd.lay_options(board, "VH", "SP", phase="3")
    with pytest.raises(RuleViolation) as refused:                                         # no road at edge 4
        bd.check_lay(board, "VH", "SP", "D10", "441M", 0, phase="3")
    assert refused.value.code in ("NO_ROUTE", "ILLEGAL_ROTATION")
    with pytest.raises(RuleViolation) as refused:                                         # and no route at all
        bd.check_lay(board, "VH", "LB", "D10", "441M", 3, phase="3")
    assert refused.value.code == "NO_ROUTE"


def test_11_2_2_a_plain_tile_is_upgraded_the_same_way():
    """The same reach for a plain tile: E11's yellow 9 (road 1-4) upgraded by a route arriving at edge 3."""
    board = bd.new_board(dict(MINERALS))
    bd.apply_lay(board, "E11", "9", 1)
    entered = bd.lays.reach(board, "VH", "SP").entered
    assert ("E11", 3) in entered
    options = [o for o in bd.lay_options(board, "VH", "SP", phase="3") if o["hex"] == "E11"]
    assert options and all(3 in bd.lays.road_edges(o["tile"], o["rotation"]) for o in options)


def test_11_6_while_a_deal_waits_the_seller_may_only_answer_it(table):
    t = vh_buying_from_ssf(table, ssf_president="bob")
    t.do("ann", K.BuyTransport(base="SP", from_corp="SSF", from_base="LB", transport=2, price=9))
    assert t.refused("bob", K.Pass()) == "DEAL_PENDING"
    assert t.refused("ann", K.AnswerDeal(accept=True)) == "NOT_YOUR_TURN"
    t.do("bob", K.AnswerDeal(accept=False))
    assert t.state.corps["SSF"].transports == {"LB": [2], "SP": [2]} and t.state.op.deal is None


def test_11_6_a_deal_recorded_before_bases_were_named_still_takes_the_local_base_copy(table):
    # a DealProposed stored by an older engine has no from_base: evolve and decide keep its old meaning
    t = vh_buying_from_ssf(table, ssf_president="bob")
    t.given(E.DealProposed(corp="VH", seller="bob", kind="transport", from_corp="SSF", transport=2,
                           base="SP", price=9))
    events = t.do("bob", K.AnswerDeal(accept=True))
    bought = next(e for e in events if e.type == "TransportBought")
    assert bought.from_base == "LB" and t.state.corps["SSF"].transports == {"LB": [], "SP": [2]}


def test_6_1_a_private_bought_from_another_player_pays_that_player_once_accepted(table):
    t = vh_buying_from_ssf(table, ssf_president="bob")
    t.given(E.PrivateBought(player="bob", private="P3", price=40))
    cash = t.cash("p:bob")
    t.do("ann", K.AcquirePrivate(private="P3", price=50))
    t.do("bob", K.AnswerDeal(accept=True))
    assert t.state.private_owner["P3"] == "c:VH" and t.cash("p:bob") == cash + 50
