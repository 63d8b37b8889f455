"""The strong Trucker bot gives up only with the win in hand (issue 17): alone in the last round's flight,
its credits after giving up ahead of every other seat's. Flying on could then only lose components."""
from __future__ import annotations

import random

from starbase_rules.arena import level_seat, random_seat, rotated
from starbase_rules.fair import FairRng
from trucker_rules import flight_messages as f
from trucker_rules.game import GAME


def _first_give_up(seeds=range(10)):
    """The seat state in which the strong bot first gives up in a seeded game against two random seats."""
    for seed in seeds:
        names = rotated(["bot", "random1", "random2"], seed)
        seats = {n: level_seat(GAME, "strong") if n == "bot" else random_seat(GAME) for n in names}
        rng, rnd = FairRng(f"giving-up-{seed}".encode()), random.Random(seed)
        state = GAME.initial_state()
        for event in GAME.setup(names, {}, rng):
            state = GAME.evolve(state, event)
        while GAME.outcome(state) is None:
            actor = rnd.choice(GAME.to_act(state))
            command = seats[actor](state, actor, rnd)
            if actor == "bot" and isinstance(command, f.GiveUp):
                return GAME.seat_state(state, "bot")
            for event in GAME.decide(state, command, actor, rng):
                state = GAME.evolve(state, event)
    raise AssertionError("the strong bot never gave up in these games")


def _choice(state):
    return GAME.level_command(state, "bot", random.Random(1), "strong")


def test_it_gives_up_alone_in_the_last_round_with_the_lead_and_not_without_the_lead():
    state = _first_give_up()
    assert state.round == 3
    assert isinstance(_choice(state), f.GiveUp)
    rival = next(n for n in state.players if n != "bot")
    behind = state.clone()
    behind.seats[rival].credits = state.seats["bot"].credits + 50
    assert not isinstance(_choice(behind), f.GiveUp)


def test_it_answers_the_decision_once_it_has_given_up():
    state = _first_give_up()
    given_up = state.clone()
    given_up.seats["bot"].giving_up = True
    command = _choice(given_up)
    assert command is not None and not isinstance(command, f.GiveUp)
    assert GAME.decide(given_up, command, "bot", FairRng(b"check")) is not None
