"""Table options (`moon21.options`): declared once, refused when unknown or bad, and each known
difference between the rulebook and 18xx.games switchable on its own."""
import pytest

from moon21 import board as bd
from moon21 import commands as K
from moon21 import events as E
from moon21.board.synthetic import lay_path
from moon21.game import GAME
from moon21.options import INFO, RULE_KEYS, RULEBOOK, SITE, preset, table_options
from starbase_rules.contract import RuleViolation
from starbase_rules.fair import FairRng
from tests.moon21.board.conftest import MINERALS, WEST_EAST


def refusal(options) -> str:
    with pytest.raises(RuleViolation) as refused:
        table_options(options)
    key = next(iter(k for k in options if k != "ruleset"), "ruleset")
    assert key in refused.value.message                             # the message names what is wrong
    return refused.value.code


def test_the_rulebook_is_the_default_and_every_option_is_recorded_explicitly():
    resolved = table_options({})
    assert resolved == preset(RULEBOOK) and resolved["ruleset"] == "rulebook"
    assert list(resolved) == ["ruleset", *RULE_KEYS] == [spec.key for spec in INFO.options]
    events = GAME.setup(["ann", "bob"], {}, FairRng(b"7"))
    assert events[0].options == resolved


def test_the_18xx_games_ruleset_switches_each_known_difference():
    site = table_options({"ruleset": SITE})
    differing = {key for key in RULE_KEYS if site[key] != INFO.option(key).default}
    assert differing == {"ols_hexes", "mineral_lay_cost", "tunnel_mountain_cost", "certificate_limit_2p",
                         "second_run_token", "build_reach", "bankruptcy"}
    assert site["pool_cap_2p"] == 50 and site["maximum_revenue"] == "enforced"   # the site agrees here


def test_an_override_beats_the_ruleset():
    assert table_options({"ruleset": SITE, "certificate_limit_2p": 15})["certificate_limit_2p"] == 15
    assert table_options({"pool_cap_2p": 60})["pool_cap_2p"] == 60


@pytest.mark.parametrize("options", [{"nope": 1}, {"ruleset": SITE, "decision_seconds": 5}])
def test_unknown_options_are_refused(options):
    assert refusal(options) == "UNKNOWN_OPTION"


@pytest.mark.parametrize("options", [
    {"ruleset": "house"}, {"certificate_limit_2p": 16}, {"certificate_limit_2p": "18"},
    {"mineral_lay_cost": True}, {"second_run_token": "some_token"}, {"ols_hexes": None},
])
def test_bad_values_are_refused(options):
    assert refusal(options) == "BAD_OPTION"


def test_a_bad_option_refuses_the_setup_and_the_declaration_lists_every_option():
    with pytest.raises(RuleViolation) as refused:
        GAME.setup(["ann", "bob"], {"pool_cap_2p": 55}, FairRng(b"7"))
    assert refused.value.code == "BAD_OPTION"
    assert [spec.key for spec in GAME.info.options] == ["ruleset", *RULE_KEYS]
    assert all(spec.choices and spec.default in spec.choices for spec in GAME.info.options)


def test_the_setup_records_the_ruleset_readings_for_every_option_left_out():
    events = GAME.setup(["ann", "bob"], {"ruleset": SITE, "pool_cap_2p": 60}, FairRng(b"7"))
    assert events[0].options == {**preset(SITE), "pool_cap_2p": 60}
    assert events[0].options["certificate_limit_2p"] == 18


def test_a_game_recorded_before_options_plays_by_the_rulebook(table):
    t = table(("ann", "bob"))                       # GameSetUp without options
    assert t.state.options == {} and t.state.option("certificate_limit_2p") == 15


# -- 9.3 certificate limit with two players ---------------------------------------------------------

def at_fifteen_certificates(table, options):
    """ann: 6 VH and 6 SSF certificates and 3 privates; bob presides SWP with 60 %."""
    t = table(("ann", "bob"), cash=5000, options=options).stock_round()
    t.start("ann", "VH", 60).hand("p:ann", "VH", [1, 2, 3, 4, 5]).start("ann", "SSF", 60)
    t.hand("p:ann", "SSF", [1, 2, 3, 4, 5]).start("bob", "SWP", 60).hand("p:bob", "SWP", [1, 2, 3, 4])
    t.given(*[E.PrivateBought(player="ann", private=p, price=0) for p in ("P2", "P3", "P4")])
    assert len(t.state.shares.certs_held("p:ann")) + len(t.state.privates_of("p:ann")) == 15
    return t


def test_9_3_two_players_hold_at_most_15_certificates_by_the_rulebook(table):
    t = at_fifteen_certificates(table, {})
    assert t.refused("ann", K.BuyShare(corp="SWP")) == "CERTIFICATE_LIMIT"


def test_9_3_two_players_hold_18_certificates_on_18xx_games(table):
    t = at_fifteen_certificates(table, {"ruleset": SITE})
    for _ in range(3):                               # the 16th, 17th and 18th certificates
        t.do("ann", K.BuyShare(corp="SWP"))
        t.do("bob", K.Pass())
    assert len(t.state.shares.certs_held("p:ann")) == 15
    assert t.refused("ann", K.BuyShare(corp="VH", source="ipo")) == "CERTIFICATE_LIMIT"


def test_9_3_the_limit_option_is_for_two_players_only(table):
    three = table(("ann", "bob", "cy"), options={"certificate_limit_2p": 18})
    from moon21.trading import cert_limit
    assert cert_limit(three.state) == 15 and cert_limit(table(("a", "b"), options={"certificate_limit_2p": 18}).state) == 18


# -- 9.1 / 14 the bank pool with two players --------------------------------------------------------

@pytest.mark.parametrize("cap, sixth", [(50, "POOL_FULL"), (60, "accepted")])
def test_9_1_the_pool_cap_with_two_players(table, cap, sixth):
    t = table(("ann", "bob"), options={"pool_cap_2p": cap}).stock_round()
    t.start("ann", "VH", 60).hand("p:bob", "VH", [1, 2, 3, 4, 5, 6])
    t.do("ann", K.Pass())
    t.do("bob", K.SellShares(corp="VH", count=5))
    if sixth == "accepted":
        t.do("bob", K.SellShares(corp="VH"))
        assert t.state.shares.held_percent("VH", "pool") == 60
    else:
        assert t.refused("bob", K.SellShares(corp="VH")) == sixth


# -- 6.1.1 the Old Landing Site ----------------------------------------------------------------------

@pytest.mark.parametrize("ruleset, d10", [(RULEBOOK, False), (SITE, True)])
def test_6_1_1_the_old_landing_site_hexes(table, ruleset, d10):
    t = table(("ann", "bob"), options={"ruleset": ruleset}).given(E.RoundStarted(kind="ISR"))
    t.do("ann", K.BuyPrivate(private="P1"))
    hexes = {o["hex"] for o in GAME.legal_actions(t.state, "ann")}
    assert ("D10" in hexes) is d10 and "A7" in hexes
    command = K.PlaceOldLandingSite(hex="D10", tile="57M", rotation=0, depot=0)
    if d10:
        t.do("ann", command)
        assert t.state.board.tokens["D10"] == [["OLS"]]
    else:
        assert t.refused("ann", command) == "ILLEGAL_HEX"


# -- 11.2.1 / 6.1.6 terrain costs -------------------------------------------------------------------

def test_11_2_1_a_first_tile_in_a_mineral_hex_costs_the_mineral_lay_cost():
    board = bd.new_board(dict(MINERALS))
    assert bd.check_lay(board, "VH", "SP", "D10", "57M", 1, phase="2") == 0
    assert bd.check_lay(board, "VH", "SP", "D10", "57M", 1, phase="2", mineral_cost=20) == 20
    board.tiles["D10"] = ["57M", 1]
    board.supply["57M"] -= 1
    assert bd.check_lay(board, "VH", "SP", "D10", "441M", 1, phase="3", mineral_cost=20) == 0   # upgrades free


def test_11_2_1_the_game_charges_the_tables_mineral_cost(table):
    for options, cost in (({}, 0), ({"ruleset": SITE}, 20)):
        t = table(options=options).stock_round().start("ann", "VH", 70, extra_shares=3)
        t.given(E.CorporationFloated(corp="VH"), E.RoundStarted(kind="OR", set_no=1, or_no=1),
                E.OperatingTurnStarted(corp="VH"))
        laid = t.do("ann", K.LayTile(base="SP", hex="D10", tile="57M", rotation=1))
        assert laid[0].cost == cost and t.cash("c:VH") == 140 + 3 * 70 - cost


def test_6_1_6_the_tunnel_company_makes_mountains_cost_10_or_30():
    board = bd.new_board(dict(MINERALS))
    bd.apply_lay(board, "G7", "57M", 0)             # VH's base, road towards the mountain G9
    assert bd.check_lay(board, "VH", "LB", "G9", "9", 0, phase="2", tunnel=True) == 10
    assert bd.check_lay(board, "VH", "LB", "G9", "9", 0, phase="2", tunnel=True, tunnel_mountain_cost=30) == 30
    assert bd.check_lay(board, "VH", "LB", "G9", "9", 0, phase="2", tunnel_mountain_cost=30) == 40


# -- 11.4 the second run's token ---------------------------------------------------------------------

def test_11_4_a_second_run_with_only_the_other_bases_token():
    """SWP's Space Port base runs E9-C7 and then C7-B4: the second run meets the first at C7 but holds
    only SWP's *local* base token, neither the Space Port token nor a depot token."""
    board = bd.new_board(dict(MINERALS))
    lay_path(board, WEST_EAST, start_edge=2, end_edge=0)
    runs = {"LB": [], "SP": [{"transport": 2, "stops": ["E9-0", "C7-0"]}, {"transport": 2, "stops": ["C7-0", "B4-0"]}]}
    kw = dict(sp_value=20, phase="2")
    with pytest.raises(RuleViolation) as refused:
        bd.validate_turn_runs(board, "SWP", runs, {"LB": [], "SP": [2, 2]}, **kw)
    assert refused.value.code == "NO_TOKEN_IN_RUN"
    accepted = bd.validate_turn_runs(board, "SWP", runs, {"LB": [], "SP": [2, 2]}, second_run="any_token", **kw)
    assert accepted["SP"]["revenue"] == 20 + 30 + 30 + 20
    best = bd.best_turn_runs(board, "SWP", {"LB": [], "SP": [2, 2]}, second_run="any_token", **kw)
    assert best["SP"]["revenue"] >= accepted["SP"]["revenue"]
    assert bd.best_turn_runs(board, "SWP", {"LB": [], "SP": [2, 2]}, **kw)["SP"]["revenue"] < best["SP"]["revenue"]


# -- 11.4 the duty to run for the most ---------------------------------------------------------------

@pytest.mark.parametrize("duty, code", [("enforced", "NOT_MAXIMUM_REVENUE"), ("not_enforced", None)])
def test_11_4_runs_below_the_maximum(table, duty, code):
    t = table(options={"maximum_revenue": duty}).stock_round().start("ann", "VH", 70, extra_shares=3)
    t.given(E.CorporationFloated(corp="VH"), E.RoundStarted(kind="OR", set_no=1, or_no=1),
            E.OperatingTurnStarted(corp="VH"))
    t.do("ann", K.LayTile(base="SP", hex="D10", tile="57M", rotation=1))
    t.given(E.StepFinished(corp="VH", step="tiles", next_step="run"),
            E.TransportBought(corp="VH", base="SP", transport=2, price=120))
    if code:
        assert t.refused("ann", K.RunTransports(runs={})) == code
    else:
        events = t.do("ann", K.RunTransports(runs={}))
        assert [e.revenue for e in events if e.type == "TransportsRun"] == [0]


# -- 11.1 / 11.2.2 what reaching a place to build means ---------------------------------------------

def test_11_1_the_site_builds_where_its_network_reaches_even_reversing_through_old_road():
    """SSF's local base reaches E11 only at edge 1; its Space Port loop makes the network (not a route)
    come back to E11's edge 3 (see test_board_reach)."""
    from tests.moon21.board.test_board_reach import LOOP
    board = bd.new_board(dict(MINERALS))
    for hex_id, tile in LOOP.items():
        board.tiles[hex_id] = list(tile)
        board.supply[tile[0]] -= 1
    with pytest.raises(RuleViolation):
        bd.check_lay(board, "SSF", "LB", "E11", "23", 3, phase="3")
    assert bd.check_lay(board, "SSF", "LB", "E11", "23", 3, phase="3", reach_mode="network") == 0
    assert {"hex": "E11", "tile": "23", "rotation": 3, "cost": 0} in \
        bd.lay_options(board, "SSF", "LB", phase="3", reach_mode="network")


# -- 11.7 / 11.8.1 when a president may declare bankruptcy --------------------------------------------

def short_of_money(table, options):
    """VH must buy a ₡120 transport with ₡20; ann has ₡0 but 3 sellable SSF shares worth ₡60 each."""
    spent = 120 + 5 * 60
    t = table(("ann", "bob"), cash=spent, options=options).stock_round()
    t.start("ann", "VH", 60).start("ann", "SSF", 60, extra_shares=3)
    t.given(E.TileLaid(corp="VH", base="LB", hex="D10", tile="5M", rotation=3, cost=100),
            E.CorporationFloated(corp="VH"), E.RoundStarted(kind="OR", set_no=1, or_no=1),
            E.OperatingTurnStarted(corp="VH"), E.StepFinished(corp="VH", step="tiles", next_step="buy"),
            E.EmergencyBegan(corp="VH", need=10_000))
    return t


def test_11_7_by_the_rulebook_a_president_sells_before_going_bankrupt(table):
    t = short_of_money(table, {})
    assert t.refused("ann", K.DeclareBankruptcy()) == "NOT_BANKRUPT"


def test_11_8_1_on_18xx_games_a_president_short_of_money_may_go_bankrupt_at_once(table):
    t = short_of_money(table, {"ruleset": SITE})
    events = t.do("ann", K.DeclareBankruptcy())
    types = [e.type for e in events]
    assert types.index("SharesSold") < types.index("CorporationClosed") < types.index("PlayerBankrupt")
    sold = next(e for e in events if e.type == "SharesSold")
    assert sold.seller == "p:ann" and len(sold.certs) == 3 and "ann" in t.state.bankrupt


def test_11_8_1_on_18xx_games_a_president_who_could_pay_by_selling_may_not(table):
    t = short_of_money(table, {"ruleset": SITE})
    t.given(E.EmergencyBegan(corp="VH", need=120))    # ₡20 + 3 x ₡60 covers it
    assert t.refused("ann", K.DeclareBankruptcy()) == "NOT_BANKRUPT"


def test_11_7_the_president_s_own_cash_counts_and_exactly_enough_is_enough(table):
    # ₡20 in VH's treasury + ann's ₡0 + 3 x ₡60 of SSF = ₡200
    for ruleset, need, allowed in ((SITE, 200, False), (SITE, 201, True)):
        t = short_of_money(table, {"ruleset": ruleset})
        t.given(E.EmergencyBegan(corp="VH", need=need))
        if allowed:
            t.do("ann", K.DeclareBankruptcy())
        else:
            assert t.refused("ann", K.DeclareBankruptcy()) == "NOT_BANKRUPT"
    t = short_of_money(table, {"ruleset": SITE})
    t.given(E.PrivateRevenuePaid(private="P2", holder="p:ann", amount=30), E.EmergencyBegan(corp="VH", need=220))
    assert t.refused("ann", K.DeclareBankruptcy()) == "NOT_BANKRUPT"      # ₡20 + ₡30 + ₡180 >= ₡220


def test_11_7_by_the_rulebook_a_president_without_shares_goes_bankrupt_when_cash_falls_short(table):
    t = table(("ann", "bob"), cash=120).stock_round().start("ann", "VH", 60)
    t.given(E.TileLaid(corp="VH", base="LB", hex="D10", tile="5M", rotation=3, cost=100),
            E.CorporationFloated(corp="VH"), E.RoundStarted(kind="OR", set_no=1, or_no=1),
            E.OperatingTurnStarted(corp="VH"), E.StepFinished(corp="VH", step="tiles", next_step="buy"),
            E.EmergencyBegan(corp="VH", need=20))                     # exactly VH's ₡20: it can pay
    assert t.refused("ann", K.DeclareBankruptcy()) == "NOT_BANKRUPT"
    t.given(E.EmergencyBegan(corp="VH", need=21))
    assert "PlayerBankrupt" in [e.type for e in t.do("ann", K.DeclareBankruptcy())]


def test_11_8_1_on_18xx_games_the_bank_sells_everything_the_rules_allow_with_the_price_falling(table):
    # ann holds 4 SSF shares (SSF has operated, the pool holds one): she may sell all 4 (pool 50 %)
    t = table(("ann", "bob"), cash=120 + 60 + 5 * 60, options={"ruleset": SITE}).stock_round()
    t.start("ann", "VH", 60).start("bob", "SSF", 60, extra_shares=1).hand("p:ann", "SSF", [2, 3, 4, 5])
    t.hand("p:bob", "SSF", [6]).given(E.SharesSold(seller="p:bob", certs=["SSF_6"], price=60))
    t.given(E.TileLaid(corp="VH", base="LB", hex="D10", tile="5M", rotation=3, cost=100),
            E.CorporationFloated(corp="VH"), E.CorporationFloated(corp="SSF"),
            E.RoundStarted(kind="OR", set_no=1, or_no=1), E.OperatingTurnStarted(corp="SSF"),
            E.OperatingTurnEnded(corp="SSF"), E.OperatingTurnStarted(corp="VH"),
            E.StepFinished(corp="VH", step="tiles", next_step="buy"), E.EmergencyBegan(corp="VH", need=10_000))
    price = t.price("SSF")
    events = t.do("ann", K.DeclareBankruptcy())
    sold = [e for e in events if e.type == "SharesSold"]
    assert [len(e.certs) for e in sold] == [4] and t.price("SSF") < price
    closed = next(e for e in events if e.type == "CorporationClosed")
    assert closed.corp == "VH" and closed.reason.startswith("bankrupt")


def test_11_7_on_18xx_games_shares_that_would_pass_the_presidency_do_not_count(table):
    # ann presides VH with 40 %, bob holds 30 %: she may sell one VH share (a tie keeps her), not two
    t = table(("ann", "bob"), cash=2000, options={"ruleset": SITE}).stock_round()
    t.start("ann", "VH", 60).hand("p:ann", "VH", [1, 2]).hand("p:bob", "VH", [3, 4, 5])
    t.given(E.TileLaid(corp="VH", base="LB", hex="D10", tile="5M", rotation=3, cost=t.cash("c:VH")),
            E.CorporationFloated(corp="VH"), E.RoundStarted(kind="OR", set_no=1, or_no=1),
            E.OperatingTurnStarted(corp="VH"), E.StepFinished(corp="VH", step="tiles", next_step="buy"))
    have = t.cash("p:ann")
    t.given(E.EmergencyBegan(corp="VH", need=have + 61))             # one share (₡60) is not enough
    events = t.do("ann", K.DeclareBankruptcy())
    assert [len(e.certs) for e in events if e.type == "SharesSold"] == [1]


def test_the_declaration_gives_each_option_with_its_values_and_where_the_rulebook_speaks():
    declared = GAME.info.model_dump(mode="json")["options"]
    ruleset = next(d for d in declared if d["key"] == "ruleset")
    assert (ruleset["type"], ruleset["choices"], ruleset["default"]) == ("str", ["rulebook", "18xx.games"], "rulebook")
    limit = next(d for d in declared if d["key"] == "certificate_limit_2p")
    assert (limit["type"], limit["choices"], limit["default"]) == ("int", [15, 18], 15)
    assert limit["description"].startswith("9.3: ") and preset(SITE)["certificate_limit_2p"] == 18
