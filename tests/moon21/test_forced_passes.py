"""Forced passes (`moon21.forced`): where a player or corporation could only pass, the engine passes for
it, as 18xx.games does, so nobody is asked for (and no clock waits on) a pass with no alternative."""
from moon21 import commands as K
from moon21 import events as E
from moon21.game import GAME


def types(events) -> list[str]:
    return [e.type for e in events]


def test_a_stock_turn_with_nothing_to_do_is_passed_by_the_engine(table):
    # given ann's last ₡20 buys nothing and her only certificate is VH's president's, which nobody
    # else could take over
    t = table(("ann", "bob"), cash=200).stock_round()
    t.do("ann", K.StartCorporation(corp="VH", par=90))
    # when bob spends his money too, then both are passed for and the corporate round begins
    events = t.do("bob", K.StartCorporation(corp="SSF", par=90))
    passes = [(e.player, e.passed) for e in events if e.type == "StockTurnEnded"]
    assert passes == [("bob", False), ("ann", True), ("bob", True)]
    assert t.state.kind == "CR"


def test_a_stock_turn_with_a_choice_waits_for_the_player(table):
    t = table(("ann", "bob"), cash=300).stock_round()
    t.do("ann", K.StartCorporation(corp="VH", par=90))
    t.do("bob", K.StartCorporation(corp="SSF", par=90))
    assert GAME.to_act(t.state) == ["ann"]          # ann's ₡120 buys a VH share: she decides


def test_a_corporate_turn_with_nothing_to_issue_sell_or_buy_ends_by_itself(table):
    # given VH is sold out (nothing to issue), holds no stock and has no money for any share
    t = table(("ann", "bob"), cash=1000).stock_round().start("ann", "VH", 60)
    t.hand("p:ann", "VH", [1, 2, 3, 4]).hand("p:bob", "VH", [5, 6, 7, 8])
    t.given(E.CorporationFloated(corp="VH"), E.TileLaid(corp="VH", base="LB", hex="G7", tile="57M",
                                                            rotation=0, cost=t.cash("c:VH")))
    t.do("ann", K.Pass())
    events = t.do("bob", K.Pass())                  # the stock round ends: VH's corporate turn is empty
    started = [e for e in events if e.type == "CorporateTurnStarted"]
    assert [e.corp for e in started] == ["VH"]
    assert types(events).index("CorporateTurnEnded") > types(events).index("CorporateTurnStarted")
    assert t.state.kind == "OR"


def test_a_corporate_turn_that_could_issue_waits_for_the_president(table):
    t = table(("ann", "bob"), cash=1000).stock_round().start("ann", "VH", 60, extra_shares=3)
    t.given(E.CorporationFloated(corp="VH"))
    t.do("ann", K.Pass())
    t.do("bob", K.Pass())
    assert t.state.kind == "CR" and t.state.cr.current == "VH" and GAME.to_act(t.state) == ["ann"]


def buy_step(table, treasury: int):
    t = table(("ann", "bob")).stock_round().start("ann", "VH", 60, extra_shares=3)
    t.given(E.CorporationFloated(corp="VH"), E.TransportBought(corp="VH", base="LB", transport=2, price=0),
            E.TileLaid(corp="VH", base="LB", hex="G7", tile="57M", rotation=0, cost=t.cash("c:VH") - treasury),
            E.RoundStarted(kind="OR", set_no=1, or_no=1), E.OperatingTurnStarted(corp="VH"),
            E.StepFinished(corp="VH", step="tiles", next_step="run"))
    return t


def test_a_buy_step_with_no_money_and_nothing_to_take_ends_the_turn(table):
    t = buy_step(table, treasury=0)
    events = t.do("ann", K.RunTransports(runs={"LB": [], "SP": []}))
    kinds = types(events)
    assert kinds[kinds.index("StepFinished") + 1] == "OperatingTurnEnded"   # buy step: nothing to ask
    assert t.state.or_no == 2                        # VH was alone: the next operating round began


def test_a_buy_step_with_money_for_a_transport_waits(table):
    t = buy_step(table, treasury=200)
    t.do("ann", K.RunTransports(runs={"LB": [], "SP": []}))
    assert t.state.op.corp == "VH" and t.state.op.step == "buy" and GAME.to_act(t.state) == ["ann"]


def test_a_buy_step_that_could_take_another_corporations_transport_for_1_waits(table):
    t = buy_step(table, treasury=1).start("bob", "SSF", 60)
    t.given(E.TransportBought(corp="SSF", base="SP", transport=2, price=0))
    t.do("ann", K.RunTransports(runs={"LB": [], "SP": []}))
    assert t.state.op.step == "buy"
    t.do("ann", K.BuyTransport(base="SP", from_corp="SSF", from_base="SP", transport=2, price=1))


def swap_only(table):
    """ann, penniless, presides VH whose treasury holds an SSF share; she holds an ordinary SWP share
    that the full pool cannot take, and VH's president's certificate nobody else could take over."""
    t = table(("ann", "bob"), cash=700).stock_round(set_no=2)
    t.start("ann", "VH", 60).start("bob", "SSF", 60).start("bob", "SWP", 60).hand("p:ann", "SWP", [1])
    t.hand("p:bob", "SWP", [2, 3, 4, 5, 6]).hand("c:VH", "SSF", [1])
    t.given(E.SharesSold(seller="p:bob", certs=["SWP_2", "SWP_3", "SWP_4", "SWP_5", "SWP_6"], price=60))
    t.state.ledger.move("p:ann", "bank", t.cash("p:ann"))            # scenery: ann has no money left
    return t


def test_a_swap_is_a_choice_so_the_turn_is_not_passed_for_the_player(table):
    from moon21.forced import _swaps, stock_turn_has_choice
    t = swap_only(table)
    swaps = _swaps(t.state, "ann")
    assert [(c.corp, c.take, c.give) for c in swaps] == [("VH", "SSF_1", "SWP_1")]
    assert stock_turn_has_choice(t.state, "ann")
    t.do("ann", swaps[0])
    assert t.state.shares.location["SWP_1"] == "c:VH" and t.state.shares.location["SSF_1"] == "p:ann"


def test_with_the_certificates_already_swapped_this_round_the_turn_is_passed(table):
    from moon21.forced import _swaps, stock_turn_has_choice
    t = swap_only(table)
    t.state.swapped.append("SWP_1")                                   # scenery: SWP_1 took part in a swap
    assert _swaps(t.state, "ann") == [] and not stock_turn_has_choice(t.state, "ann")
    t.state.swapped[:] = ["SSF_1"]                                   # or the treasury's SSF_1 did
    assert _swaps(t.state, "ann") == [] and not stock_turn_has_choice(t.state, "ann")
    t.state.swapped[:] = []
    assert stock_turn_has_choice(t.state, "ann")                      # the swap alone makes it a choice


# -- boundaries: exactly enough is a choice ---------------------------------------------------------

def test_exactly_the_price_of_a_share_is_a_choice(table):
    from moon21.forced import stock_turn_has_choice
    t = table(("ann", "bob"), cash=1000).stock_round().start("bob", "VH", 60)
    t.state.ledger.move("p:ann", "bank", t.cash("p:ann") - 60)       # scenery: ann keeps ₡60
    assert stock_turn_has_choice(t.state, "ann")
    t.state.ledger.move("p:ann", "bank", 1)
    assert not stock_turn_has_choice(t.state, "ann")


def test_a_share_only_in_the_pool_is_a_choice(table):
    from moon21.forced import stock_turn_has_choice
    t = table(("ann", "bob"), cash=1000).stock_round().start("bob", "VH", 60).hand("p:bob", "VH", range(1, 9))
    t.given(E.SharesSold(seller="p:bob", certs=["VH_8"], price=60))
    t.state.ledger.move("p:ann", "bank", t.cash("p:ann") - 60)
    assert stock_turn_has_choice(t.state, "ann")
    t.do("ann", K.BuyShare(corp="VH", source="pool"))


def test_exactly_twice_the_lowest_par_is_a_choice(table):
    from moon21.forced import stock_turn_has_choice
    t = table(("ann", "bob"), cash=120).stock_round()
    assert stock_turn_has_choice(t.state, "ann")
    t.state.ledger.move("p:ann", "bank", 1)
    assert not stock_turn_has_choice(t.state, "ann")


def test_the_tunnel_share_alone_is_a_choice(table):
    from moon21.forced import stock_turn_has_choice
    t = table(("ann", "bob"), cash=1000).stock_round(set_no=2).start("bob", "VH", 60).hand("p:bob", "VH", [1])
    t.given(E.SharesSold(seller="p:bob", certs=["VH_1"], price=60), E.PrivateBought(player="ann", private="P6", price=0))
    t.state.ledger.move("p:ann", "bank", t.cash("p:ann"))
    assert stock_turn_has_choice(t.state, "ann")
    t.do("ann", K.TakeTunnelShare(corp="VH"))


def test_a_corporation_that_may_issue_exactly_one_share_has_a_choice(table):
    from moon21.corporate import issue_limit
    from moon21.forced import corporate_turn_has_choice
    t = table(("ann", "bob"), cash=1000).stock_round().start("ann", "VH", 60)
    t.given(E.RoundStarted(kind="CR", set_no=1, order=["VH"]), E.CorporateTurnStarted(corp="VH"))
    t.hand("p:ann", "VH", [1, 2, 3, 4, 5, 6, 7])
    t.given(E.SharesSold(seller="p:ann", certs=["VH_1", "VH_2", "VH_3", "VH_4"], price=60))   # players 50, pool 40
    t.state.ledger.move("c:VH", "bank", t.cash("c:VH"))              # no money to buy anything
    assert issue_limit(t.state, "VH") == 1 and corporate_turn_has_choice(t.state, "VH")


def test_a_corporation_with_exactly_a_shares_price_may_buy_it(table):
    from moon21.forced import corporate_turn_has_choice
    t = table(("ann", "bob"), cash=1000).stock_round().start("ann", "VH", 60).hand("p:ann", "VH", range(1, 9))
    t.start("bob", "SSF", 70)
    t.given(E.RoundStarted(kind="CR", set_no=1, order=["VH"]), E.CorporateTurnStarted(corp="VH"))
    t.state.ledger.move("c:VH", "bank", t.cash("c:VH") - 70)
    assert corporate_turn_has_choice(t.state, "VH")
    t.state.ledger.move("c:VH", "bank", 1)
    assert not corporate_turn_has_choice(t.state, "VH")
    t.state.ledger.move("bank", "c:VH", 1)
    t.hand("c:VH", "SSF", [1])                    # it spends its ₡70 on an SSF share it could now sell
    assert t.cash("c:VH") == 0 and corporate_turn_has_choice(t.state, "VH")


def test_exactly_the_price_of_the_top_transport_is_a_choice(table):
    t = buy_step(table, treasury=120)
    t.do("ann", K.RunTransports(runs={"LB": [], "SP": []}))
    assert t.state.op.step == "buy"
    t2 = buy_step(table, treasury=119)
    t2.do("ann", K.RunTransports(runs={"LB": [], "SP": []}))
    assert t2.state.op is None or t2.state.op.step != "buy"


def test_a_private_a_player_would_sell_for_1_is_a_choice_in_the_buy_step(table):
    t = buy_step(table, treasury=1)
    t.given(E.PrivateBought(player="bob", private="P3", price=0))
    t.do("ann", K.RunTransports(runs={"LB": [], "SP": []}))
    assert t.state.op.step == "buy"
    t.do("ann", K.AcquirePrivate(private="P3", price=1))
