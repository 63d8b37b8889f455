"""Whole three-round games played by bots through the engine alone (invariants after every event,
the events refold to the same state), hidden information, and timed-out decisions."""
import json
import random

import pytest

from starbase_rules import FairRng, fold
from starbase_rules.playout import playout
from trucker_rules import flight_messages as f
from trucker_rules.game import GAME


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3), (4, 4)])
def test_bots_play_three_rounds_to_the_end(players, seed):
    result = playout(GAME, [f"bot{i}" for i in range(players)], seed)
    assert [e.round for e in result.events if e.type == "JourneyEnded"] == [1, 2, 3]
    assert len(result.outcome.standings) == players
    paid = sum(e.amount for e in result.events if e.type == "CreditsPaid")
    assert paid == sum(s.score for s in result.outcome.standings) == -result.state.bank
    # the bots' ships are sound: they passed inspection and launched with an engine
    state = GAME.initial_state()
    for event in result.events:
        state = GAME.evolve(state, event)
        if event.type == "ShipLaunched":
            assert any(p.tile.is_engine for p in state.seats[event.player].ship.tiles.values())
        if event.type == "ShipInspected":
            assert event.flaws == []


def test_no_viewer_ever_sees_a_card_before_it_is_revealed_or_a_tile_before_it_is_grabbed():
    from trucker_rules import catalog
    result = playout(GAME, ["a", "b", "c"], 5)
    state = GAME.initial_state()
    known_tiles, known_cards = set(), set()
    secret = set(catalog.warehouse_ids()) | set(catalog.cards())
    drawn_cards = set()       # cards some event has named: by their first look (for one player) or reveal
    for event in result.events:
        if event.type == "ComponentGrabbed":
            known_tiles.add(event.component)
        if event.type == "CardRevealed":
            known_cards.add(event.card)
            drawn_cards.add(event.card)
        if event.type == "PileTaken" and event.cards:
            drawn_cards.update(event.cards)
        if event.type == "RoundStarted":
            known_tiles, known_cards = set(), set()
        # The stream itself (not only what viewers see) names no card before it is looked at or revealed.
        stored = json.dumps(event.model_dump(mode="json"))
        assert not [c for c in set(catalog.cards()) - drawn_cards if f'"{c}"' in stored], event.type
        state = GAME.evolve(state, event)
        hidden = secret - known_tiles - known_cards - set(state.face_up)
        for viewer in ("a", None):
            shown = json.dumps(GAME.redact(event, viewer))
            if state.phase == "building":
                shown += json.dumps(GAME.view(state, viewer))
            holding = state.seats[viewer].looking_at if viewer and state.phase == "building" else None
            seen_pile = set(state.piles[holding - 1]) if holding else set()   # the holder sees that pile
            leaked = [x for x in hidden - seen_pile if f'"{x}"' in shown]
            assert not leaked, (event.type, viewer, leaked[:3])


def test_a_timed_out_decision_takes_the_default_and_play_goes_on():
    """Players who never answer: every decision they owe is taken by default_command, and the game ends."""
    rng, rnd = FairRng(b"absent"), random.Random(9)
    state = fold(GAME, GAME.setup(["here", "away"], {}, rng))
    commands = 0
    while GAME.outcome(state) is None:
        actor = GAME.to_act(state)[0]
        command = GAME.bot_command(state, actor, rnd) if actor == "here" else GAME.default_command(state, actor)
        assert command is not None, f"no default for {actor} in {state.phase}"
        state = fold(GAME, GAME.decide(state, command, actor, rng), state)
        assert GAME.invariants(state) == []
        commands += 1
        assert commands < 5000
    assert state.finished_rounds == 3


def test_the_default_flight_answers():
    from tests.trucker_rules.test_trucker_cards import cabin_only
    from tests.trucker_rules.trucker_helpers import FlightTable, crewed, ship_of
    ann = crewed(ship_of({(8, 7): ("crg2-01", 0)}))
    table = FlightTable({"ann": ann, "bob": cabin_only()}, {"ann": 0, "bob": -2}, "I-06")
    assert GAME.default_command(table.state, "ann") == f.ChoosePlanet(planet=None)
    assert GAME.default_command(table.state, "bob") is None            # bob owes nothing yet
    table.do("ann", GAME.default_command(table.state, "ann"))
    assert table.ask["player"] == "bob"


def test_a_whole_game_with_every_option_set_the_other_way():
    options = {"hourglass_seconds": 60, "refuse_flawed_placements": True, "reserve_in_round_1": True,
               "round3_board": "IIIa", "lenient_inspection": True, "reuse_cards": True,
               "top_card_of_round_level": False, "lapped_ship_gives_up": False, "voluntary_give_up": False,
               "pirates_shared_roll": False, "stardust_from_rear": False, "lone_ship_skips_weakest": False,
               "half_value_rounding": "up"}
    result = playout(GAME, ["a", "b", "c"], 12, options=options)
    assert result.outcome is not None
    assert {e.ship_class for e in result.events if e.type == "RoundStarted"} == {"I", "II", "IIIa"}


def test_events_stored_as_json_rebuild_the_same_state():
    result = playout(GAME, ["a", "b", "c", "d"], 21)
    stored = [json.loads(json.dumps(e.model_dump(mode="json"))) for e in result.events]
    assert fold(GAME, [GAME.parse_event(data) for data in stored]) == result.state
