"""Rule errors found by the outside review (issue 10), each named after its rule, and the clock's
default command while a decision is owed."""
from t2038 import commands as cmd
from t2038 import events as ev
from t2038.game import GAME

from .helpers import game, given, of_type, price, refused, when
from .stock_fixtures import ALL_SOLD
from .test_earnings import tsi_operating


def test_7_21_a_full_payout_of_zero_earnings_is_recorded_as_chosen_and_moves_the_price_left():
    for choice in ("full", "half", "retain"):
        state, events = when(tsi_operating(0), "ann", cmd.DeclareEarnings(choice=choice))
        declared = of_type(events, ev.EarningsDeclared)[0]
        assert (declared.choice, declared.earnings, declared.retained, declared.per_share) == (choice, 0, 0, 0)
        moved = of_type(events, ev.StockPriceMoved)[0]
        assert moved.why == "zero earnings" and price(state, "TSI") == 59      # 7.21: left one box
        assert not of_type(events, ev.CashMoved)                               # nothing to pay out


def test_7_2_with_earnings_the_choice_still_decides_the_move():
    state, _ = when(tsi_operating(100), "ann", cmd.DeclareEarnings(choice="full"))
    assert price(state, "TSI") > 67


def independent_buying_in_phase_ii():
    """Independent 1 (bob's) in its purchases step in Phase II; ann still owns private 0."""
    return given(game(), *ALL_SOLD, ev.PhaseChanged(phase=2),
                 ev.RoundStarted(kind="operating", set_number=2, or_number=1),
                 ev.OperatorStarted(operator="i:1"),
                 ev.EarningsDeclared(operator="i:1", choice="retain", earnings=0, retained=0, per_share=0))


def test_7_4_an_independent_may_not_buy_a_private_and_is_told_only_corporations_may():
    state = independent_buying_in_phase_ii()
    assert state.company_owner[0] == "p:ann" and GAME.to_act(state) == ["bob"]
    refused(state, "bob", cmd.BuyPrivate(company=0, price=1), "CORPORATIONS_ONLY")
    assert not [a for a in GAME.legal_actions(state, "bob") if a["type"] == "BuyPrivate"]


def test_the_clock_declines_an_owed_merger_and_the_default_is_accepted():
    state = given(game(), *ALL_SOLD, ev.PhaseChanged(phase=3),
                  ev.RoundStarted(kind="operating", set_number=2, or_number=1),
                  ev.DecisionsQueued(decisions=[["merge", "dee", 3, "later"]]))
    default = GAME.default_command(state, "dee")
    assert default == cmd.Decline()
    after, _ = when(state, "dee", default)
    assert after.company_owner[3] == "p:dee" and not after.pending


def test_every_default_of_a_played_game_is_accepted():
    """A whole bot game: at every step the clock's default for the player to act is accepted."""
    from starbase_rules.fair import FairRng
    from starbase_rules.playout import playout
    events = playout(GAME, ["ann", "bob", "cy", "dee"], seed=5, options={"variant": "short"}, check=False).events
    state, checked = GAME.initial_state(), 0
    for index, event in enumerate(events):
        state = GAME.evolve(state, event)
        if index % 7 or GAME.is_over(state):
            continue
        for player in GAME.to_act(state):
            GAME.decide(state, GAME.default_command(state, player), player, FairRng(b"default"))
            checked += 1
    assert checked > 100



def test_5_35_the_clock_makes_the_sale_a_player_over_the_limit_owes_not_a_refused_pass():
    from .test_rulebook_review import launched
    from .stock_fixtures import tsi_held
    state = tsi_held({"bob": 2, "ann": 5}, president="bob", short=True)
    state = given(state, *launched("RU", "ann", 67, 4, 4, units=6), ev.OperatorFinished(operator="c:RU"),
                  *launched("LE", "ann", 67, 4, 4, active=False))
    refused(state, "ann", cmd.Pass(), "MUST_COMPLY")
    default = GAME.default_command(state, "ann")
    assert isinstance(default, cmd.SellShares)
    when(state, "ann", default)
