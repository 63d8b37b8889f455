"""Operating rounds (rule 11): tiles, depots, runs for the most, earnings, transports, phases."""
import pytest

from moon21 import board as bd
from moon21.board.synthetic import crowded_board
from moon21 import commands as K
from moon21 import events as E
from moon21.earnings import dividends, pay, submit_runs
from moon21.game import GAME
from starbase_rules.contract import RuleViolation


def vh_operating(table, players=("ann", "bob", "cy"), **kw):
    t = table(players, **kw).stock_round().start("ann", "VH", 70, extra_shares=3)
    return t.given(E.CorporationFloated(corp="VH"), E.RoundStarted(kind="OR", set_no=1, or_no=1),
                   E.OperatingTurnStarted(corp="VH"))


def d10_lay(t):
    option = next(o for o in bd.lay_options(t.state.board, "VH", "SP", phase="2") if o["hex"] == "D10")
    return K.LayTile(base="SP", hex="D10", tile=option["tile"], rotation=option["rotation"])


def test_each_base_has_one_tile_action(table):
    t = vh_operating(table)
    lay = d10_lay(t)
    t.do("ann", lay)
    assert t.refused("ann", lay) == "TILE_ACTION_USED"
    assert t.state.board.tiles["D10"][0] in ("5M", "6M", "57M")
    lb = bd.lay_options(t.state.board, "VH", "LB", phase="2")[0]
    t.do("ann", K.LayTile(base="LB", hex=lb["hex"], tile=lb["tile"], rotation=lb["rotation"]))
    assert t.state.op.step != "tiles"           # both tile actions used: on to the depot step


def test_illegal_tile_is_refused_with_the_board_code(table):
    t = vh_operating(table)
    code = t.refused("ann", K.LayTile(base="SP", hex="D10", tile="9", rotation=0))
    assert code in ("ILLEGAL_TILE", "ILLEGAL_HEX")
    assert t.refused("ann", K.LayTile(base="SP", hex="E9", tile="7", rotation=0)) in ("ILLEGAL_HEX", "ILLEGAL_TILE")


def test_a_corporation_with_a_route_and_no_transport_must_buy_one(table):
    t = vh_operating(table)
    t.do("ann", d10_lay(t))
    t.do("ann", K.Pass())                       # end of tiles
    if t.state.op.step == "token":
        t.do("ann", K.Pass())
    assert t.state.op.step == "buy"             # no transport: the run step passed by itself
    assert t.refused("ann", K.Pass()) == "MUST_BUY_TRANSPORT"
    assert t.refused("ann", K.BuyTransport(base="SP", transport=3)) == "NOT_TOP_OF_STACK"
    t.do("ann", K.BuyTransport(base="SP"))
    assert t.state.corps["VH"].transports["SP"] == [2] and t.cash("c:VH") == 350 - 120
    assert t.refused("ann", K.BuyTransport(base="SP")) == "BASE_FULL"   # one per base per turn
    events = t.do("ann", K.BuyTransport(base="LB"))
    assert "OperatingTurnEnded" in [e.type for e in events]      # nothing more it could do


def test_runs_must_earn_the_maximum_and_space_port_earnings_pay_dividends(table):
    t = vh_operating(table)
    t.do("ann", d10_lay(t))
    t.given(E.StepFinished(corp="VH", step="tiles", next_step="run"),
            E.TransportBought(corp="VH", base="SP", transport=2, price=120))
    assert t.refused("ann", K.Pass()) == "MUST_RUN"
    assert t.refused("ann", K.RunTransports(runs={})) == "NOT_MAXIMUM_REVENUE"
    code = t.refused("ann", K.RunTransports(runs={"SP": [{"transport": 2, "stops": ["E9-0", "Z9-0"]}]}))
    assert code == "UNKNOWN_STOP"
    ann = t.cash("p:ann")
    events = t.do("ann", K.RunTransports(runs={"SP": [{"transport": 2, "stops": ["E9-0", "D10-0"]}]}))
    paid = next(e for e in events if e.type == "EarningsPaid")
    assert paid.revenue == 50 and paid.payouts == {"p:ann": 25}       # 20 (Space Port) + 30 (Helium-3)
    assert t.cash("p:ann") == ann + 25
    assert t.price("VH") == 80                                         # 50 >= half of 70: one right


def test_vh_dividend_example(table):
    """Rule 11.5: ₡350 paid; Paul 40 %, Beth 20 %, SSF 10 %, one share in the pool."""
    t = table(("paul", "beth", "dennis")).stock_round().start("paul", "VH", 70, extra_shares=2)
    t.start("beth", "SSF", 60).hand("p:beth", "VH", [3, 4]).hand("c:SSF", "VH", [5]).hand("p:dennis", "VH", [6])
    t.given(E.SharesSold(seller="p:dennis", certs=["VH_6"], price=70))
    assert dividends(t.state, "VH", 350) == {"p:paul": 140, "p:beth": 70, "c:SSF": 35}


def _pay_space_port(t, revenue):
    em = GAME.tx(t.state)
    pay(em, "VH", {"LB": {"revenue": 0, "runs": []}, "SP": {"revenue": revenue, "runs": []}})
    return em.state.market.positions["VH"], em.events


def test_share_price_moves_by_space_port_earnings(table):
    t = vh_operating(table)
    t.given(E.StepFinished(corp="VH", step="tiles", next_step="run"))
    start = t.state.market.positions["VH"]                     # 70 at row 4 col 2
    assert _pay_space_port(t, 0)[0] == (start[0], start[1] - 1)
    assert _pay_space_port(t, 30)[0] == start                  # below half the price: stays
    assert _pay_space_port(t, 35)[0] == (start[0], start[1] + 1)
    assert _pay_space_port(t, 140)[0] == (start[0], start[1] + 2)


def test_local_base_earnings_go_to_the_treasury(table):
    t = vh_operating(table)
    t.given(E.StepFinished(corp="VH", step="tiles", next_step="run"))
    em = GAME.tx(t.state)
    pay(em, "VH", {"LB": {"revenue": 60, "runs": []}, "SP": {"revenue": 0, "runs": []}})
    assert em.state.cash("c:VH") == t.cash("c:VH") + 60


def test_east_west_run_takes_one_bonus_token_per_area_not_yet_held(table):
    t = vh_operating(table)
    t.given(E.StepFinished(corp="VH", step="tiles", next_step="run"))
    em = GAME.tx(t.state)
    run = {"transport": 10, "stops": [], "revenue": 200, "areas": ["power_plant", "research_station"],
           "east_west": True}
    pay(em, "VH", {"LB": {"revenue": 200, "runs": [run]}, "SP": {"revenue": 0, "runs": []}})
    assert sorted(em.state.corps["VH"].bonus_tokens) == ["power_plant", "research_station"]
    assert em.state.bonus_left["power_plant"] == 3


def test_first_transport_of_a_type_changes_the_phase_and_later_phases_remove_old_transports(table):
    t = vh_operating(table, cash=3000)
    t.hand("p:bob", "VH", [4, 5])
    t.given(E.StepFinished(corp="VH", step="tiles", next_step="buy"))
    t.given(*[E.UnContractUsed(corp="VH", action="remove", transport_type=2) for _ in range(5)])
    events = t.do("ann", K.BuyTransport(base="LB"))
    assert [e.type for e in events][:2] == ["TransportBought", "PhaseChanged"] and t.state.phase == "3"
    t.given(E.PhaseChanged(phase="6", removed_type=3))
    assert t.state.corps["VH"].transports["LB"] == [] and t.state.scrapped[3] == 4 and 3 not in t.state.stack


def test_one_depot_token_per_turn_paid_from_the_treasury(table):
    t = vh_operating(table)
    t.do("ann", d10_lay(t))
    t.do("ann", K.Pass())
    options = bd.token_options(t.state.board, "VH")
    assert any(o["hex"] == "D10" for o in options)
    cash = t.cash("c:VH")
    t.do("ann", K.PlaceDepot(hex="D10", depot=0))
    assert t.cash("c:VH") == cash - 25 and t.state.corps["VH"].depots_left == [50, 75]


def test_a_transport_may_move_to_the_other_base_once(table):
    t = vh_operating(table)
    t.given(E.TransportBought(corp="VH", base="SP", transport=2, price=120),
            E.TransportBought(corp="VH", base="SP", transport=2, price=120))
    assert t.refused("ann", K.MoveTransport(from_base="LB", transport=2)) == "NO_SUCH_TRANSPORT"
    t.do("ann", K.MoveTransport(from_base="SP", transport=2))
    assert t.state.corps["VH"].transports == {"LB": [2], "SP": [2]}
    assert t.refused("ann", K.MoveTransport(from_base="SP", transport=2)) == "ALREADY_MOVED"


def test_transport_bought_from_a_corporation_with_the_same_president(table):
    t = vh_operating(table, cash=2000).start("ann", "SSF", 60).start("bob", "SWP", 60)
    t.given(E.TransportBought(corp="SSF", base="LB", transport=2, price=120),
            E.TransportBought(corp="SWP", base="LB", transport=2, price=120),
            E.StepFinished(corp="VH", step="tiles", next_step="buy"))
    assert t.refused("ann", K.BuyTransport(base="LB", from_corp="SSF", transport=2, price=0)) == "ILLEGAL_PRICE"
    t.do("ann", K.BuyTransport(base="LB", from_corp="SSF", transport=2, price=1))
    assert t.state.corps["SSF"].transports["LB"] == [] and t.cash("c:SSF") == 120 - 120 + 1


def test_wrong_step_refusals(table):
    t = vh_operating(table)
    assert t.refused("ann", K.BuyTransport(base="LB")) == "WRONG_STEP"
    assert t.refused("bob", K.Pass()) == "NOT_YOUR_TURN"
    assert t.refused("ann", K.BuyShare(corp="VH")) == "WRONG_ROUND"


def test_second_depot_token_in_a_turn_is_refused(table):
    t = vh_operating(table)
    t.do("ann", d10_lay(t))
    t.do("ann", K.PlaceDepot(hex="D10", depot=0))
    assert t.refused("ann", K.PlaceDepot(hex="D10", depot=0)) == "TOKEN_ALREADY_PLACED"


def test_a_corporation_without_depot_tokens_left_cannot_place_one(table):
    t = table().stock_round().start("ann", "SWP", 70, extra_shares=3)
    t.given(E.TileLaid(corp="SWP", base="LB", hex="D10", tile="5M", rotation=3, cost=0),
            E.TileLaid(corp="SWP", base="LB", hex="B4", tile="5M", rotation=0, cost=0),
            E.DepotPlaced(corp="SWP", hex="D10", depot=0, cost=0, free=True),
            E.DepotPlaced(corp="SWP", hex="B4", depot=0, cost=0, free=True),
            E.CorporationFloated(corp="SWP"), E.RoundStarted(kind="OR", set_no=1, or_no=1),
            E.OperatingTurnStarted(corp="SWP"))
    assert t.refused("ann", K.PlaceDepot(hex="E5", depot=0)) == "NO_TOKENS_LEFT"


def test_runs_are_given_per_base(table):
    t = vh_operating(table)
    assert t.refused("ann", K.RunTransports(runs={"XX": []})) == "UNKNOWN_BASE"


def test_buying_from_a_corporation_with_another_president_needs_its_consent(table):
    t = vh_operating(table, cash=2000).start("bob", "SWP", 60)
    t.given(E.TransportBought(corp="SWP", base="SP", transport=2, price=120),
            E.StepFinished(corp="VH", step="tiles", next_step="buy"))
    events = t.do("ann", K.BuyTransport(base="LB", from_corp="SWP", transport=2, price=80))
    assert [e.type for e in events] == ["DealProposed"]
    from moon21.game import GAME
    assert GAME.to_act(t.state) == ["bob"]
    assert [a["accept"] for a in GAME.legal_actions(t.state, "bob")] == [True, False]
    assert t.refused("ann", K.Pass()) == "NOT_YOUR_TURN"
    assert t.refused("bob", K.Pass()) == "DEAL_PENDING"
    t.do("bob", K.AnswerDeal(accept=False))
    assert t.state.corps["SWP"].transports["SP"] == [2] and GAME.to_act(t.state) == ["ann"]
    t.do("ann", K.BuyTransport(base="LB", from_corp="SWP", transport=2, price=80))
    t.do("bob", K.AnswerDeal(accept=True))
    assert t.state.corps["VH"].transports["LB"] == [2] and t.cash("c:SWP") == 120 - 120 + 80
    assert t.refused("ann", K.AnswerDeal(accept=True)) == "NO_DEAL"


def test_a_corporation_in_receivership_cannot_agree_a_sale(table):
    t = vh_operating(table, cash=2000).start("bob", "SWP", 60)
    t.given(E.TransportBought(corp="SWP", base="SP", transport=2, price=120),
            E.PlayerBankrupt(player="bob", successors={"SWP": None}),
            E.StepFinished(corp="VH", step="tiles", next_step="buy"))
    assert t.refused("ann", K.BuyTransport(base="LB", from_corp="SWP", transport=2, price=5)) == "NO_CONSENT"


def test_operating_order_is_re_evaluated_after_each_corporation_and_unfloated_ones_wait(table):
    from moon21.game import GAME
    from moon21.flow import advance
    t = table(cash=3000).stock_round().start("ann", "VH", 90).start("bob", "SSF", 80).start("cy", "SWP", 70)
    t.start("ann", "ITC", 60)
    t.given(*[E.CorporationFloated(corp=c) for c in ("VH", "SSF", "SWP")],
            E.RoundStarted(kind="OR", set_no=1, or_no=1))
    em = GAME.tx(t.state)
    advance(em)
    assert em.state.op.corp == "VH"
    t.given(*em.events, E.OperatingTurnEnded(corp="VH"),
            E.PriceMoved(corp="SSF", direction="left", steps=3))      # SSF falls below SWP meanwhile
    em = GAME.tx(t.state)
    advance(em)
    assert em.state.op.corp == "SWP"
    t.given(*em.events, E.OperatingTurnEnded(corp="SWP"))
    em = GAME.tx(t.state)
    advance(em)
    assert em.state.op.corp == "SSF"                                  # ITC never floated: it never runs


def test_after_or_4_1_any_corporation_may_lay_the_terminal_as_a_tile_action(table):
    t = table().stock_round(4).start("ann", "VH", 70, extra_shares=3)
    t.given(E.PrivateBought(player="bob", private="P5", price=80), E.PrivateClosed(private="P5", reason="OR 4.1"),
            E.TileLaid(corp="VH", base="LB", hex="G7", tile="5M", rotation=1, cost=0),
            E.CorporationFloated(corp="VH"), E.RoundStarted(kind="OR", set_no=4, or_no=1),
            E.OperatingTurnStarted(corp="VH"))
    options = [o for o in bd.lay_options(t.state.board, "VH", "LB", phase="2", terminal_open=True)
               if o["hex"] == "F8"]
    assert options and not [o for o in bd.lay_options(t.state.board, "VH", "LB", phase="2") if o["hex"] == "F8"]
    t.do("ann", K.LayTile(base="LB", hex="F8", tile="X29", rotation=options[0]["rotation"]))
    assert t.state.board.tiles["F8"][0] == "X29"


def test_11_4_a_legal_pair_of_runs_worth_the_maximum_is_accepted_whatever_road_each_base_takes(table):
    """Rule 11.4: no road used by two of a corporation's runs in a turn, the two bases taken together.
    Given a late board where VH's bases can only share out the road one way, when the president
    submits a maximal pair of runs (not the one the route engine would pick), then it is accepted:
    checking one base after the other (fixing the first base's road) wrongly refused it."""
    t = vh_operating(table)
    s = t.state
    s.board = crowded_board(11, tokens_per_corp=1)
    s.phase = "10"
    s.corps["VH"].transports = {"LB": [4], "SP": [4]}
    s.op.step = "run"
    runs = {"LB": [{"transport": 4, "stops": ["E5-0", "D10-0", "E9-0", "G7-0"]}],
            "SP": [{"transport": 4, "stops": ["E9-0", "E5-0", "D2-0", "E5-1"]}]}
    for first, second in (("LB", "SP"), ("SP", "LB")):   # the old one-base-after-the-other check
        one = bd.validate_runs(s.board, "VH", first, runs[first], [4], sp_value=20, phase="10")
        used = [seg for r in one["runs"] for seg in r["segments"]]
        with pytest.raises(RuleViolation) as refusal:
            bd.validate_runs(s.board, "VH", second, runs[second], [4], sp_value=20, phase="10",
                             used_segments=used)
        assert refusal.value.code == "ROAD_REUSED"
    best = bd.best_turn_runs(s.board, "VH", {"LB": [4], "SP": [4]}, sp_value=20, phase="10")
    assert best["LB"]["runs"][0]["stops"] != runs["LB"][0]["stops"]   # not the engine's own choice
    em = GAME.tx(s)
    submit_runs(em, "VH", runs)
    run = [e for e in em.events if e.type == "TransportsRun"]
    assert sum(e.revenue for e in run) == best["revenue"] == 360
    assert [e.runs[0]["stops"] for e in run] == [runs["LB"][0]["stops"], runs["SP"][0]["stops"]]


@pytest.mark.parametrize("cash, waits", [(25, True), (24, False)])
def test_the_token_step_waits_for_a_treasury_that_can_pay_the_depot_and_is_skipped_for_one_that_cannot(
        table, cash, waits):
    from kit18xx.bank import BANK
    t = vh_operating(table)
    t.do("ann", d10_lay(t))
    assert t.state.corps["VH"].depots_left[0] == 25 and bd.token_options(t.state.board, "VH")
    t.state.ledger.move("c:VH", BANK, t.cash("c:VH") - cash)     # exactly the depot's cost, or one short
    events = t.do("ann", K.Pass())
    skipped = [e for e in events if e.type == "StepFinished" and e.step == "token"]
    assert (t.state.op.step == "token") == waits and len(skipped) == (0 if waits else 1)
