"""Launch preparation (crew, aliens beside matching life support, batteries, start positions) and
Journey's End (arrival, best-looking ship, goods at full or half value, lost components)."""
import pytest

from starbase_rules import FairRng, RuleViolation, fold
from trucker_rules import flight_messages as f
from trucker_rules import scoring
from trucker_rules.game import GAME, automatic_events
from trucker_rules.state import REPAIR
from tests.trucker_rules.trucker_helpers import crewed, ship_of


def repaired_table(ships: dict):
    state = fold(GAME, GAME.setup(list(ships), {}, FairRng(b"launch")))
    for tile, (name, ship) in enumerate(ships.items(), start=1):
        state.seats[name].ship, state.seats[name].order_tile = ship, tile
    state.order_tiles_free, state.phase = [], REPAIR
    return state


def test_aliens_are_offered_for_cabins_joined_to_life_support_then_ships_launch_by_order_tile():
    # cab-01 at (8,7) is joined by connectors to purple life support at (9,7); the starting cabin never takes one.
    ann = ship_of({(8, 7): ("cab-01", 0), (9, 7): ("lsp-05", 0), (6, 7): ("bat3-04", 2)})
    state = repaired_table({"ann": ann, "bob": ship_of({}, cabin="start-green")})
    rng = FairRng(b"launch")
    events = automatic_events(state, rng)
    state = fold(GAME, events, state)
    assert events[-1] == f.DecisionRequested(player="ann", kind="aliens", key="aliens/ann",
                                             options={"cabins": [[[8, 7], ["purple"]]]})
    for wrong, code in (([((8, 7), "brown")], "NO_LIFE_SUPPORT"), ([((7, 7), "purple")], "NO_LIFE_SUPPORT"),
                        ([((8, 7), "purple"), ((8, 7), "brown")], "TOO_MANY_ALIENS")):
        with pytest.raises(RuleViolation) as info:
            GAME.decide(state, f.ChooseAliens(aliens=wrong), "ann", rng)
        assert info.value.code == code
    events = GAME.decide(state, f.ChooseAliens(aliens=[((8, 7), "purple")]), "ann", rng)
    launched = {e.player: e for e in events if isinstance(e, f.ShipLaunched)}
    assert launched["ann"] == f.ShipLaunched(player="ann", position=0, humans=[((7, 7), 2)],
                                             aliens=[((8, 7), "purple")], batteries=[((6, 7), 3)])
    assert launched["bob"].position == -2 and launched["bob"].humans == [((7, 7), 2)]   # round 1 spacing
    assert any(isinstance(e, f.CardRevealed) for e in events)


def test_an_alien_leaves_when_its_life_support_is_destroyed():
    ann = crewed(ship_of({(8, 7): ("cab-01", 0), (9, 7): ("lsp-05", 0)}), aliens={(8, 7): "purple"},
                 humans={(7, 7): 2})
    state = repaired_table({"ann": ann, "bob": ship_of({}, cabin="start-green")})
    GAME.evolve(state, f.ComponentDestroyed(player="ann", square=(9, 7), component="lsp-05"))
    assert state.seats["ann"].ship.aliens == {}


def scored(state):
    return [(e.player, e.reason, e.amount) for e in scoring.journeys_end(state, FairRng(b"s"))
            if isinstance(e, f.CreditsPaid)]


def test_journeys_end_pays_arrival_best_looking_goods_and_charges_lost_components():
    ann = crewed(ship_of({(8, 7): ("red1-02", 0), (6, 7): ("str-02", 0)}), goods={(8, 7): ["red"]})  # 6 exposed
    bob = crewed(ship_of({}, cabin="start-green"), goods={})                            # 4 exposed
    cy = crewed(ship_of({(8, 7): ("crg2-01", 0)}, cabin="start-red"), goods={(8, 7): ["yellow", "green"]})
    state = repaired_table({"ann": ann, "bob": bob, "cy": cy})
    for name, position in (("ann", 10), ("bob", 4), ("cy", 7)):
        state.seats[name].position = position
    state.seats["cy"].gave_up = True
    ann.lost = ["eng-01", "eng-02"]
    assert sorted(scored(state)) == sorted([
        ("ann", "arrival", 4), ("bob", "arrival", 3),                 # cy gave up: no arrival reward
        ("bob", "best_looking_ship", 2),                             # fewest exposed connectors among finishers
        ("ann", "goods", 4), ("cy", "goods", 2),                      # cy sells 5 at half value, rounded down
        ("ann", "lost_components", -2)])


def test_best_looking_ship_ties_are_all_paid_and_rounding_up_is_an_option():
    state = repaired_table({"ann": crewed(ship_of({})), "bob": crewed(ship_of({}, cabin="start-green"))})
    state.seats["ann"].position, state.seats["bob"].position = 3, 1
    assert ("ann", "best_looking_ship", 2) in scored(state) and ("bob", "best_looking_ship", 2) in scored(state)
    state.seats["bob"].gave_up = True
    state.seats["bob"].ship.goods = {}
    state.options["half_value_rounding"] = "up"
    state.seats["bob"].ship.tiles[(8, 7)] = ship_of({(8, 7): ("crg2-01", 0)}).tiles[(8, 7)]
    state.seats["bob"].ship.goods = {(8, 7): ["yellow", "green"]}
    assert ("bob", "goods", 3) in scored(state)


def test_the_game_ends_after_round_three_with_the_most_credits_winning():
    state = repaired_table({"ann": crewed(ship_of({})), "bob": crewed(ship_of({}, cabin="start-green"))})
    state.round = 3
    state.seats["ann"].position, state.seats["bob"].position = 3, 1
    events = scoring.journeys_end(state, FairRng(b"s"))
    assert events[-1] == f.CreditsTallied(credits={"ann": 12 + 6, "bob": 9 + 6})
    state = fold(GAME, events, state)
    outcome = GAME.outcome(state)
    assert [(s.player, s.rank, s.score) for s in outcome.standings] == [("ann", 1, 18), ("bob", 2, 15)]
    with pytest.raises(RuleViolation) as info:
        GAME.decide(state, f.GiveUp(), "ann", FairRng(b"s"))
    assert info.value.code == "GAME_OVER"


def test_each_round_lays_out_four_piles_and_draws_its_cards_without_reusing_any():
    from collections import Counter
    from starbase_rules.playout import playout
    from trucker_rules import catalog
    result = playout(GAME, ["a", "b"], 3)
    assert [e.piles for e in result.events if e.type == "FlightDeckDealt"] == [4, 4, 4]
    level = lambda card: catalog.cards()[card]["level"]
    recipe = {1: {"I": 2}, 2: {"I": 1, "II": 2}, 3: {"I": 1, "II": 1, "III": 2}}
    round_no, drawn, first_cards, pile_cards = 0, [], [], []
    for event in result.events:
        if event.type == "RoundStarted":
            round_no, first_card_due = event.round, True
        if event.type == "PileTaken" and event.cards:
            assert Counter(map(level, event.cards)) == recipe[round_no]     # a pile holds the recipe
            drawn += event.cards
            pile_cards += event.cards
        if event.type == "CardRevealed":
            if event.card not in pile_cards:
                drawn.append(event.card)
            if first_card_due:
                first_cards.append(event.card)
                first_card_due = False
    assert len(drawn) == len(set(drawn))                  # no card comes twice in the game
    assert [level(c) for c in first_cards] == ["I", "II", "III"]
