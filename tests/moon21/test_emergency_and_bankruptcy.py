"""Emergency money raising (11.7), bankruptcies and receivership (11.8, 12), the Closed box (5)."""
from moon21 import commands as K
from moon21 import events as E
from moon21.game import GAME


def forced_sale(table):
    """Rule 11.7 example: Dennis (VH) must raise ₡100; VH owns three SSF at ₡70 and one SWP at ₡100."""
    t = table(("dennis", "beth", "paul"), cash=1000).stock_round()
    t.start("dennis", "VH", 70).start("beth", "SSF", 70).start("paul", "SWP", 90)
    t.given(E.PriceMoved(corp="SWP", direction="right"))
    t.given(E.PrivateRevenuePaid(private="P2", holder="c:VH", amount=190))
    t.hand("c:VH", "SSF", [1, 2, 3]).hand("c:VH", "SWP", [1])
    assert t.cash("c:VH") == 20 and t.price("SWP") == 100
    return t.given(E.CorporationFloated(corp="VH"), E.RoundStarted(kind="OR", set_no=1, or_no=1),
                   E.OperatingTurnStarted(corp="VH"), E.StepFinished(corp="VH", step="tiles", next_step="buy"),
                   E.EmergencyBegan(corp="VH", need=120))


def test_forced_stock_sale_example_two_ssf_shares_allowed(table):
    t = forced_sale(table)
    assert t.refused("dennis", K.SellShares(corp="SSF", count=3, seller="corporation")) == "SELLING_TOO_MUCH"
    t.do("dennis", K.SellShares(corp="SSF", count=2, seller="corporation"))
    assert t.cash("c:VH") == 160
    assert t.refused("dennis", K.SellShares(corp="SWP", count=1, seller="corporation")) == "SELLING_TOO_MUCH"
    t.do("dennis", K.BuyTransport(base="SP"))
    assert t.state.corps["VH"].transports["SP"] == [2]


def test_forced_stock_sale_example_or_the_swp_share(table):
    t = forced_sale(table)
    t.do("dennis", K.SellShares(corp="SWP", count=1, seller="corporation"))
    assert t.cash("c:VH") == 120


def test_emergency_only_buys_from_the_bank_and_blocks_other_actions(table):
    t = forced_sale(table)
    assert t.refused("dennis", K.Pass()) == "MUST_BUY_TRANSPORT"
    assert t.refused("dennis", K.BuyTransport(base="SP")) == "SELL_TREASURY_FIRST"
    assert t.refused("dennis", K.SellShares(corp="VH")) == "SELL_TREASURY_FIRST"
    assert t.refused("dennis", K.DeclareBankruptcy()) == "NOT_BANKRUPT"


def test_president_adds_the_missing_money_after_treasury_stock_is_gone(table):
    t = forced_sale(table)
    t.given(E.SharesSold(seller="c:VH", certs=["SSF_1", "SSF_2", "SSF_3"], price=0),
            E.SharesSold(seller="c:VH", certs=["SWP_1"], price=0))
    dennis = t.cash("p:dennis")
    events = t.do("dennis", K.BuyTransport(base="LB"))
    bought = next(e for e in events if e.type == "TransportBought")
    assert bought.president_paid == 100 and t.cash("p:dennis") == dennis - 100 and t.cash("c:VH") == 0


def test_president_sales_may_not_change_the_raising_corporations_presidency(table):
    t = table(("dennis", "beth"), cash=300).stock_round().start("dennis", "VH", 60, extra_shares=1)
    t.hand("p:beth", "VH", [2, 3])
    t.given(E.PrivateRevenuePaid(private="P2", holder="p:dennis", amount=0))
    t.given(E.CorporationFloated(corp="VH"), E.RoundStarted(kind="OR", set_no=1, or_no=1),
            E.OperatingTurnStarted(corp="VH"), E.StepFinished(corp="VH", step="tiles", next_step="buy"),
            E.EmergencyBegan(corp="VH", need=t.cash("c:VH") + t.cash("p:dennis") + 100))
    assert t.refused("dennis", K.SellShares(corp="VH", count=2)) == "PRESIDENCY_PROTECTED"
    t.do("dennis", K.SellShares(corp="VH", count=1))            # 30 % -> 20 %, ties keep the presidency


def test_player_who_cannot_raise_the_money_goes_bankrupt_and_the_last_player_wins(table):
    t = table(("dennis", "beth"), cash=200).stock_round().start("dennis", "VH", 60)
    t.given(E.CorporationFloated(corp="VH"), E.TransportBought(corp="VH", base="LB", transport=2, price=120),
            E.PhaseChanged(phase="5", removed_type=2), E.RoundStarted(kind="OR", set_no=2, or_no=1),
            E.OperatingTurnStarted(corp="VH"), E.StepFinished(corp="VH", step="tiles", next_step="buy"),
            E.EmergencyBegan(corp="VH", need=150))
    events = t.do("dennis", K.DeclareBankruptcy())
    assert [e.type for e in events][:2] == ["CorporationClosed", "PlayerBankrupt"]
    assert t.state.corps["VH"].closed and t.state.shares.held_percent("VH", "removed") == 100
    assert t.cash("p:dennis") == 0 and t.state.ended
    assert GAME.outcome(t.state).standings[0].player == "beth"


def test_bankrupt_presidents_other_corporation_passes_left_or_goes_into_receivership(table):
    t = table(("dennis", "beth", "paul", "ann"), cash=1000).stock_round()
    t.start("dennis", "VH", 60).start("dennis", "SSF", 60).hand("p:dennis", "SSF", [1, 2])
    t.start("dennis", "SWP", 60).hand("p:paul", "SSF", [3, 4]).hand("p:ann", "SSF", [5, 6])
    t.hand("p:beth", "SWP", [1])
    t.given(E.CorporationClosed(corp="VH", reason="test"))
    from moon21.bankruptcy import bankrupt_player
    from moon21.game import GAME
    em = GAME.tx(t.state)
    bankrupt_player(em, "dennis")
    t.given(*em.events)
    assert t.state.shares.president_of("SSF") == "p:paul"      # paul and ann tie: paul sits left of dennis
    assert t.state.corps["SWP"].receivership and t.state.shares.president_of("SWP") == "pool"
    assert t.state.shares.held_percent("SSF", "pool") == 40      # dennis's shares, beyond 50 % allowed


def test_receivership_corporation_runs_withholds_and_moves_left(table):
    t = table(("dennis", "beth", "paul")).stock_round().start("dennis", "SWP", 60, extra_shares=4)
    t.given(E.CorporationFloated(corp="SWP"), E.PlayerBankrupt(player="dennis", successors={"SWP": None}))
    t.given(E.PrivateRevenuePaid(private="P2", holder="c:SWP", amount=500))
    t.given(E.RoundStarted(kind="SR", set_no=1))
    t.do("beth", K.Pass())
    events = t.do("paul", K.Pass())
    kinds = [e.type for e in events]
    assert "CorporateTurnStarted" in kinds                 # receivership: no corporate turn, ended at once
    turn = kinds.index("OperatingTurnStarted")
    assert "TransportBought" in kinds[turn:]               # no transport: buys one from the bank
    moves = [e for e in events if e.type == "PriceMoved" and e.corp == "SWP"]
    assert moves and all(m.direction == "left" for m in moves[-2:])


def test_player_reaching_twenty_percent_takes_a_receivership_corporation(table):
    t = table(("dennis", "beth", "paul")).stock_round().start("dennis", "SWP", 60, extra_shares=2)
    t.given(E.PlayerBankrupt(player="dennis", successors={"SWP": None}), E.RoundStarted(kind="SR", set_no=2))
    t.do("beth", K.BuyShare(corp="SWP", source="pool"))
    t.do("paul", K.Pass())
    t.do("beth", K.BuyShare(corp="SWP", source="pool"))
    assert t.state.shares.president_of("SWP") == "p:beth" and not t.state.corps["SWP"].receivership


def test_token_entering_the_closed_box_closes_the_corporation(table):
    t = table().stock_round().start("ann", "VH", 60).start("bob", "SSF", 60).hand("c:SSF", "VH", [1])
    t.given(E.PriceMoved(corp="VH", direction="left", steps=2))
    assert t.price("VH") == 40
    from moon21.game import GAME
    from moon21.trading import move_price
    em = GAME.tx(t.state)
    bank = t.cash("bank")
    move_price(em, "VH", "left")
    t.given(*em.events)
    assert t.state.corps["VH"].closed and "VH" not in t.state.market.positions
    assert t.cash("bank") == bank + 180 and t.cash("c:VH") == 0
    assert t.state.shares.held_percent("VH", "removed") == 100


def test_money_raised_in_an_emergency_only_buys_from_the_bank(table):
    t = forced_sale(table)
    t.given(E.TransportBought(corp="SSF", base="LB", transport=2, price=1))
    t.do("dennis", K.SellShares(corp="SWP", count=1, seller="corporation"))
    assert t.refused("dennis", K.BuyTransport(base="LB", from_corp="SSF", transport=2, price=1)) \
        == "EMERGENCY_BANK_ONLY"


def test_before_raising_money_a_transport_may_be_bought_from_another_corporation(table):
    t = forced_sale(table)
    t.given(E.TransportBought(corp="SSF", base="LB", transport=2, price=1))
    events = t.do("dennis", K.BuyTransport(base="LB", from_corp="SSF", transport=2, price=20))
    assert [e.type for e in events] == ["DealProposed"]
    t.do("beth", K.AnswerDeal(accept=True))
    assert t.state.corps["VH"].transports["LB"] == [2] and t.state.op.raising == 0


def test_12_a_closed_corporation_s_shares_in_others_go_to_the_pool_even_past_half(table):
    """Rule 12: given VH holds an SSF share while the pool already holds half of SSF, when VH's token
    enters the Closed box, then its SSF share goes to the pool anyway, its own stock leaves the game
    without compensation, its treasury goes to the bank and its tokens leave the board."""
    from moon21.game import GAME
    from moon21.trading import move_price
    t = table(cash=2000).stock_round().start("ann", "VH", 60, extra_shares=2).start("bob", "SSF", 60)
    t.hand("p:cy", "SSF", [1, 2, 3, 4, 5]).given(
        E.SharesSold(seller="p:cy", certs=[f"SSF_{n}" for n in range(1, 6)], price=60))
    t.hand("c:VH", "SSF", [6])
    assert t.state.shares.held_percent("SSF", "pool") == 50
    ann, vh_cash = t.cash("p:ann"), t.cash("c:VH")
    em = GAME.tx(t.state)
    move_price(em, "VH", "left", 3)                           # 50, 40, then down into Closed
    t.given(*em.events)
    assert t.state.corps["VH"].closed
    assert t.state.shares.location["SSF_6"] == "pool" and t.state.shares.held_percent("SSF", "pool") == 60
    assert t.state.shares.held_percent("VH", "p:ann") == 0 and t.cash("p:ann") == ann
    assert t.cash("c:VH") == 0 and vh_cash > 0
    assert "VH" not in t.state.board.space_port and "LB:VH" not in str(t.state.board.tokens)
    assert GAME.invariants(t.state) == []


def test_11_8_2_a_receivership_corporation_without_a_transport_or_the_money_for_one_is_bankrupt(table):
    """Rule 11.8.2: given SWP in receivership with no transport and less than the top transport's
    price, when it operates, then it runs nothing, moves left, and is bankrupt (closed, rule 12)."""
    t = table(("dennis", "beth", "paul")).stock_round().start("dennis", "SWP", 60).start("beth", "VH", 60)
    t.hand("c:SWP", "VH", [1])                                # SWP spends ₡60 of its ₡120
    t.given(E.CorporationFloated(corp="SWP"), E.PlayerBankrupt(player="dennis", successors={"SWP": None}))
    assert t.cash("c:SWP") == 60 and t.state.corps["SWP"].receivership
    t.given(E.RoundStarted(kind="SR", set_no=1))
    t.do("beth", K.Pass())
    t.do("paul", K.Pass())
    events = t.do("beth", K.Pass())                           # VH's corporate turn; then the OR
    kinds = [e.type for e in events]
    turn = kinds.index("OperatingTurnStarted")
    assert "TransportBought" not in kinds and "TileLaid" not in kinds
    assert [e.direction for e in events[turn:] if e.type == "PriceMoved" and e.corp == "SWP"] == ["left"]
    closed = next(e for e in events if e.type == "CorporationClosed")
    assert closed.corp == "SWP" and t.state.corps["SWP"].closed
