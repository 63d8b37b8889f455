"""Round sequence, game end, final worth, the League's round of formation, views (4, 6, 8.14, 9)."""
from starbase_rules.fair import FairRng
from t2038 import commands as cmd
from t2038 import events as ev
from t2038.game import GAME
from t2038.stock import worth

from .helpers import game, given, of_type, price, refused, when
from .stock_fixtures import tsi_held
from .test_growth_and_league import phase_iii_purchase
from .test_ships_and_phases import tsi_buying


def test_the_short_game_uses_its_own_money_ships_and_corporations():
    state = game(short=True)
    assert state.ledger.total() == 4000 and state.cash("bank") == 4000 - 1800
    assert sum(1 for sid in state.ships if sid.startswith("2.")) == 8
    assert "OPC" not in state.shares and "RCC" not in state.shares
    assert sum(1 for sid in game(cutthroat=True).ships if sid.startswith("4.")) == 4


def test_setup_draws_the_seating_with_the_games_chance():
    first = GAME.setup(["a", "b", "c", "d"], {}, FairRng(b"one"))[0].players
    assert sorted(first) == ["a", "b", "c", "d"]
    assert first == GAME.setup(["a", "b", "c", "d"], {}, FairRng(b"one"))[0].players


def test_an_operating_round_starts_with_private_income_and_fast_bucks_15():
    state = tsi_held({"ann": 2})
    for player in ("ann", "bob", "cy", "dee"):
        state, events = when(state, player, cmd.Pass())
    incomes: dict[str, int] = {}
    for e in of_type(events, ev.CashMoved):
        if e.why.startswith("income"):
            incomes[e.destination] = incomes.get(e.destination, 0) + e.amount
    assert incomes == {"p:ann": 10 + 10, "p:bob": 15, "p:cy": 20, "p:dee": 5 + 30}
    assert state.cash("i:1") == 15 and state.operator == "i:1"


def test_when_the_bank_breaks_the_set_is_finished_and_the_game_ends():
    state = tsi_buying()
    state = given(state, ev.CashMoved(source="bank", destination="p:bob", amount=state.cash("bank") - 5))
    state = given(state, ev.RouteStarted(ship="P", hex="K9", movement=4, holds=0),
                  ev.RouteEnded(ship="P", value=100, delivered=True), ev.RoundStarted(kind="operating",
                  set_number=1, or_number=1), ev.OperatorStarted(operator="c:TSI", price=100),
                  ev.RouteStarted(ship="P", hex="K9", movement=4, holds=0),
                  ev.RouteEnded(ship="P", value=100, delivered=True))
    state, events = when(state, "ann", cmd.DeclareEarnings(choice="full"))
    assert state.bank_broken and state.cash("bank") < 0 and state.round == "operating"
    state, events = when(state, "ann", cmd.FinishOperating())
    rounds_seen = set()
    while state.round != "over":
        rounds_seen.add((state.round, state.or_number))
        player = GAME.to_act(state)[0]
        state, _ = when(state, player, GAME.default_command(state, player))
    assert rounds_seen == {("operating", 1), ("operating", 2)}     # the set's second round still runs
    outcome = GAME.outcome(state)
    assert outcome.reason == "the bank ran out of money"
    assert [s.score for s in outcome.standings] == sorted((worth(state, p) for p in state.players), reverse=True)


def test_final_worth_counts_cash_shares_at_price_and_privates_before_phase_v():
    state = tsi_held({"ann": 5})
    assert worth(state, "ann") == 450 + 5 * 100 + 50 + 140        # companies 0 and 8 (Independent 4: nothing)
    assert worth(given(state, ev.PhaseChanged(phase=5)), "ann") == 450 + 5 * 100


def test_figure_10_two_final_dividends_plus_the_final_price_per_share():
    state = given(tsi_held({"ann": 5}), ev.StockPriceMoved(corp="TSI", row=1, column=17),
                  ev.RoundStarted(kind="operating", set_number=3, or_number=1))
    for _ in range(2):
        state = given(state, ev.OperatorStarted(operator="c:TSI", price=price(state, "TSI")),
                      ev.RouteStarted(ship="P", hex="K9", movement=4, holds=0),
                      ev.RouteEnded(ship="P", value=530, delivered=True))
        state, _ = when(state, "ann", cmd.DeclareEarnings(choice="full"))
        state = given(state, ev.OperatorFinished(operator="c:TSI"))
    shares_part = worth(state, "ann") - state.cash("p:ann") - 50 - 140
    assert price(state, "TSI") == 440 and shares_part + 5 * (53 + 53) == 2730


def test_the_league_does_not_operate_in_its_first_round_after_a_corporation_began_at_124_or_less():
    state = phase_iii_purchase()                                  # TSI began operating at $100
    state, _ = when(state, "ann", cmd.BuyShip(phase=3, kind="scout"))
    state, events = when(state, "dee", cmd.FormLeague())
    assert of_type(events, ev.LeagueSkipsRound) and "c:AL" in state.done_operators


def test_the_league_keeps_a_base_and_two_claims_for_each_independent_still_outside():
    from t2038.league import reserve
    state, _ = when(phase_iii_purchase(), "ann", cmd.BuyShip(phase=3, kind="scout"))
    state, _ = when(state, "dee", cmd.FormLeague())
    assert reserve(state, "claim") == 12 and reserve(state, "base") == 6


def test_views_hide_the_order_of_the_face_down_pool_and_everyone_sees_the_rest():
    state = tsi_held({"ann": 2})
    view = GAME.view(state, "bob")
    assert view["pool"] == 106 and view["shares"]["TSI"]["p:ann"] == 2
    assert GAME.legal_actions(state, "bob") == []
    kinds = {action["type"] for action in GAME.legal_actions(state, "ann")}
    assert {"Pass", "BuyShare", "LaunchCorporation"} <= kinds


def test_a_refused_command_changes_nothing_and_a_finished_game_refuses_everything():
    state = given(tsi_held({"ann": 2}), ev.GameFinished(reason="test"))
    refused(state, "ann", cmd.Pass(), "GAME_OVER")
