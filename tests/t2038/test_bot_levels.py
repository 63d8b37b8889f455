"""2038's bot levels (issue 17): each plays from the seat's own state, where the face-down pool's order
is hidden, and `strong` beats the `normal` bot."""
from __future__ import annotations

import random
from dataclasses import replace

from starbase_rules.arena import level_seat, play_match, rotated, state_after, winner
from t2038.game import GAME


def _state_after(commands: int, seed: int = 4):
    return state_after(GAME, ["a", "b", "c"], {"variant": "short"}, commands, seed)


def test_a_bot_chooses_the_same_whatever_the_order_of_the_face_down_pool():
    state = _state_after(120)
    assert len(state.pool) > 1
    shuffled = replace(state, pool=list(reversed(state.pool)))
    actor = GAME.to_act(state)[0]
    for level in GAME.bot_levels:
        chosen = [GAME.level_command(GAME.seat_state(s, actor), actor, random.Random(9), level)
                  for s in (state, shuffled)]
        assert chosen[0] == chosen[1]
    assert GAME.seat_state(state, actor).pool == sorted(state.pool)
    assert GAME.view(GAME.seat_state(state, actor), actor) == GAME.view(state, actor)


def test_the_strong_bot_beats_two_normal_bots_more_often_than_chance():
    wins = 0
    for seed in range(6):
        names = rotated(["strong", "n1", "n2"], seed)
        seats = {n: level_seat(GAME, "strong" if n == "strong" else "normal") for n in names}
        wins += winner(play_match(GAME, seats, seed, {"variant": "short"}, 6000)) == "strong"
    assert wins >= 3          # chance: 2 of 6; these seeds: 4 of 6 (9 of 12 over seeds 0-11)
