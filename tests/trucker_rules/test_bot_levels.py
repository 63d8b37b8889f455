"""Trucker's bot levels (issue 17): a bot seat's flight decisions come from the seat's own state, where
the face-down tiles, others' adventure piles and the seen cards to come are hidden."""
from __future__ import annotations

import random

from starbase_rules.fair import FairRng
from trucker_rules.game import GAME
from trucker_rules.state import BUILDING


def _flight_state(seed: int = 3):
    """A seeded 2-player game played by the engine's bots until a flight decision is owed."""
    rng, rnd = FairRng(f"levels-{seed}".encode()), random.Random(seed)
    state = GAME.initial_state()
    for event in GAME.setup(["a", "b"], {}, rng):
        state = GAME.evolve(state, event)
    for _ in range(5000):
        actors = GAME.to_act(state)
        if state.phase != BUILDING and state.step.get("ask"):
            return state
        actor = rnd.choice(actors)
        for event in GAME.decide(state, GAME.bot_command(state, actor, rnd), actor, rng):
            state = GAME.evolve(state, event)
    raise AssertionError("no flight decision in 5000 commands")


def test_the_seat_state_hides_what_the_view_hides_and_keeps_the_counts():
    state = _flight_state()
    player = state.step["ask"]["player"]
    own = GAME.seat_state(state, player)
    assert set(own.face_down) <= {"?"} and len(own.face_down) == len(state.face_down)
    assert all(set(pile) <= {"?"} for number, pile in enumerate(own.piles, 1)
               if number != state.seats[player].looking_at)
    assert set(own.deck) <= {"?"} and len(own.deck) == len(state.deck)
    assert GAME.view(own, player) == GAME.view(state, player)


def test_every_level_answers_a_flight_decision_the_game_accepts():
    state = _flight_state()
    player = state.step["ask"]["player"]
    for level in GAME.bot_levels:
        command = GAME.level_command(GAME.seat_state(state, player), player, random.Random(1), level)
        assert command is not None
        assert GAME.decide(state, command, player, FairRng(b"check")) is not None
