"""Stellar Ventures' bot levels (issue 17): each plays from the seat's own state, where face-down tiles
and the power pile are dealt anew in a fixed order, and `strong` beats the `normal` bot."""
from __future__ import annotations

import random
from dataclasses import replace

from starbase_rules.arena import level_seat, play_match, rotated, state_after, winner
from stellar.game import GAME


def _state_after(commands: int, seed: int = 2):
    return state_after(GAME, ["a", "b", "c"], {}, commands, seed)


def test_a_bot_chooses_the_same_whatever_lies_face_down():
    state = _state_after(40)
    hexes = sorted(state.alien_tiles)
    assert len(set(state.alien_tiles.values())) > 1 and len(state.powers_pile) > 1
    values = [state.alien_tiles[h] for h in hexes]
    other = replace(state, alien_tiles=dict(zip(hexes, values[1:] + values[:1])),
                    powers_pile=list(reversed(state.powers_pile)))
    assert other.alien_tiles != state.alien_tiles
    actor = GAME.to_act(state)[0]
    assert GAME.seat_state(state, actor) == GAME.seat_state(other, actor)
    for level in GAME.bot_levels:
        chosen = [GAME.level_command(GAME.seat_state(s, actor), actor, random.Random(9), level) for s in (state, other)]
        assert chosen[0] == chosen[1]
    assert GAME.view(GAME.seat_state(state, actor), actor) == GAME.view(state, actor)


def test_the_strong_bot_beats_two_normal_bots_more_often_than_chance():
    wins = 0
    for seed in range(9):
        names = rotated(["strong", "n1", "n2"], seed)
        seats = {n: level_seat(GAME, "strong" if n == "strong" else "normal") for n in names}
        wins += winner(play_match(GAME, seats, seed)) == "strong"
    assert wins >= 5          # chance: 3 of 9
