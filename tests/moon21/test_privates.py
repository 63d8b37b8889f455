"""Every private company's card text (6.1, card texts), revenue and closing."""
from moon21 import board as bd
from moon21 import commands as K
from moon21 import events as E
from moon21.game import GAME
from moon21.flow import start_operating_round


def operating(table, corp="VH", president="ann", privates=(), players=("ann", "bob", "cy"), **kw):
    t = table(players, **kw).stock_round().start(president, corp, 70, extra_shares=3)
    t.given(*[E.PrivateBought(player=president, private=p, price=0) for p in privates])
    return t.given(E.CorporationFloated(corp=corp), E.RoundStarted(kind="OR", set_no=1, or_no=1),
                   E.OperatingTurnStarted(corp=corp))


def ols_on_board(t):
    option = bd.ols_options(t.state.board)[0]
    t.given(E.OldLandingSitePlaced(player="ann", **option))
    return option["hex"]


def test_p1_old_landing_site_sells_only_for_one_and_its_token_becomes_a_depot(table):
    t = operating(table, privates=["P1"])
    hex_id = ols_on_board(t)
    assert t.refused("ann", K.AcquirePrivate(private="P1", price=2)) == "ILLEGAL_PRICE"
    t.do("ann", K.AcquirePrivate(private="P1", price=1))
    assert t.state.private_owner["P1"] == "closed"
    assert any("OLS:VH" in slots for slots in t.state.board.tokens[hex_id])
    assert t.state.corps["VH"].depots_left == [25, 50, 75]      # an extra depot, not one of the charter's


def test_buying_another_players_private_needs_their_consent(table):
    t = operating(table)
    t.given(E.PrivateBought(player="bob", private="P4", price=60))
    assert t.refused("ann", K.AcquirePrivate(private="P9", price=60)) == "UNKNOWN_PRIVATE"
    assert t.refused("ann", K.AcquirePrivate(private="P5", price=60)) == "NOT_OWNER"     # still unsold
    t.do("ann", K.AcquirePrivate(private="P4", price=90))
    assert t.state.private_owner["P4"] == "p:bob"
    t.do("bob", K.AnswerDeal(accept=True))
    assert t.state.private_owner["P4"] == "c:VH" and t.cash("p:bob") == 540 - 60 + 90


def test_p2_un_contract_adds_or_removes_a_transport_of_the_current_phase_or_later(table):
    t = operating(table, privates=["P2"])
    t.do("ann", K.AcquirePrivate(private="P2", price=45))
    assert t.state.private_owner["P2"] == "closed" and t.cash("p:ann") == 540 - 350 + 45
    assert t.refused("ann", K.Pass()) == "UN_CONTRACT_PENDING"
    assert t.refused("ann", K.UseUnContract(action="add", transport_type=2)) == "ILLEGAL_TRANSPORT_TYPE"
    assert t.refused("ann", K.UseUnContract(action="add", transport_type=10)) == "ILLEGAL_TRANSPORT_TYPE"
    t.do("ann", K.UseUnContract(action="add", transport_type=3))
    assert t.state.stack.count(3) == 5 and t.state.stack.index(3) == 5
    assert t.refused("ann", K.UseUnContract(action="remove", transport_type=4)) == "NOT_OWNER"


def test_p2_un_contract_remove(table):
    t = operating(table, privates=["P2"])
    t.do("ann", K.AcquirePrivate(private="P2", price=1))
    t.do("ann", K.UseUnContract(action="remove", transport_type=6))
    assert t.state.stack.count(6) == 1 and t.state.scrapped[6] == 1


def test_p3_space_bridge_lets_its_owner_build_across_the_rift_and_pays_60_once(table):
    t = table().stock_round().start("ann", "VH", 70, extra_shares=3)
    t.given(E.PrivateBought(player="ann", private="P3", price=40),
            E.TileLaid(corp="VH", base="LB", hex="G7", tile="5M", rotation=3, cost=0),   # road north to G5
            E.TileLaid(corp="VH", base="LB", hex="F4", tile="7", rotation=5, cost=0),    # road to the Rift edge
            E.CorporationFloated(corp="VH"), E.RoundStarted(kind="OR", set_no=1, or_no=1),
            E.OperatingTurnStarted(corp="VH"))
    across = K.LayTile(base="LB", hex="G5", tile="8", rotation=0)                         # G7 side to the Rift
    assert t.refused("ann", across) in ("ILLEGAL_TILE", "ILLEGAL_ROTATION")
    t.do("ann", K.AcquirePrivate(private="P3", price=60))
    cash = t.cash("c:VH")
    events = t.do("ann", across)
    assert [e.type for e in events][1:3] == ["RiftBridgeBonusPaid", "PrivateClosed"]
    assert t.cash("c:VH") == cash + 60 and t.state.private_owner["P3"] == "closed"


def test_p4_research_lab_marker_on_a_mineral_or_local_base_hex_then_closes(table):
    t = operating(table, privates=["P4"])
    t.do("ann", K.AcquirePrivate(private="P4", price=90))
    assert t.refused("ann", K.PlaceResearchMarker(hex="F8")) == "ILLEGAL_HEX"
    t.do("ann", K.PlaceResearchMarker(hex="D10"))
    assert t.state.board.research_marker == "D10" and t.state.private_owner["P4"] == "closed"
    assert t.refused("ann", K.PlaceResearchMarker(hex="D12")) == "NOT_OWNER"


def test_p5_terminal_laid_without_route_with_the_cheapest_depot_free(table):
    t = operating(table, privates=["P5"])
    t.do("ann", K.AcquirePrivate(private="P5", price=120))
    cash = t.cash("c:VH")
    t.do("ann", K.LayTerminal(rotation=bd.terminal_options(t.state.board)[0]["rotation"]))
    assert t.state.board.tiles["F8"][0] == "X29"
    assert t.state.corps["VH"].depots_left == [50, 75] and t.cash("c:VH") == cash
    assert t.state.private_owner["P5"] == "closed"


def test_p5_not_owned_refused(table):
    t = operating(table)
    assert t.refused("ann", K.LayTerminal(rotation=0)) == "NOT_OWNER"


def test_p6_tunnel_company_makes_mountains_cost_ten_for_its_corporation(table):
    t = operating(table, corp="SWP", privates=["P6"])
    t.given(E.TileLaid(corp="SWP", base="LB", hex="C7", tile="5M", rotation=0, cost=0))
    before = {o["cost"] for o in bd.lay_options(t.state.board, "SWP", "LB", phase="2") if o["hex"] == "B8"}
    t.do("ann", K.AcquirePrivate(private="P6", price=100))
    from moon21.operating import tile_options
    after = {o["cost"] for o in tile_options(t.state, "SWP", "LB") if o["hex"] == "B8"}
    assert before == {40} and after == {10}


def test_private_revenue_is_paid_at_the_start_of_each_operating_round(table):
    t = table().stock_round().start("ann", "VH", 70)
    t.given(E.PrivateBought(player="bob", private="P6", price=100),
            E.PrivateBought(player="ann", private="P1", price=30))
    em = GAME.tx(t.state)
    start_operating_round(em, 1, 1)
    paid = {(e.private, e.holder, e.amount) for e in em.events if e.type == "PrivateRevenuePaid"}
    assert paid == {("P6", "p:bob", 15)}                    # P1 earns nothing


def test_all_privates_close_at_the_start_of_or_4_1_before_revenue(table):
    t = table().stock_round(4)
    t.given(E.PrivateBought(player="bob", private="P6", price=100))
    em = GAME.tx(t.state)
    start_operating_round(em, 4, 1)
    assert "PrivateRevenuePaid" not in [e.type for e in em.events]
    assert em.state.private_owner["P6"] == "closed"


def test_space_port_value_rises_at_or_3_1_and_5_1(table):
    t = table().stock_round(3)
    em = GAME.tx(t.state)
    start_operating_round(em, 3, 1)
    assert em.state.space_port_value == 30
    start_operating_round(em, 5, 1)
    assert em.state.space_port_value == 40


def test_p1_cannot_go_to_a_corporation_already_in_the_ols_hex(table):
    t = table().stock_round().start("ann", "VH", 70, extra_shares=3)
    option = next(o for o in bd.ols_options(t.state.board) if o["hex"] == "G13" and o["depot"] == 0)
    t.given(E.PrivateBought(player="ann", private="P1", price=30), E.OldLandingSitePlaced(player="ann", **option),
            E.DepotPlaced(corp="VH", hex="G13", depot=1, cost=0, free=True),
            E.CorporationFloated(corp="VH"), E.RoundStarted(kind="OR", set_no=1, or_no=1),
            E.OperatingTurnStarted(corp="VH"))
    assert t.refused("ann", K.AcquirePrivate(private="P1", price=1)) == "TOKEN_IN_HEX"


def test_a_clock_running_out_on_the_un_contract_choice_changes_nothing(table):
    t = operating(table, privates=["P2"])
    t.do("ann", K.AcquirePrivate(private="P2", price=1))
    from moon21.game import GAME
    assert GAME.default_command(t.state, "ann") == K.UseUnContract(action="none")
    stack = list(t.state.stack)
    t.do("ann", GAME.default_command(t.state, "ann"))
    assert t.state.stack == stack
