"""The strong Trucker bot against random legal seats (issue 17), engine-only and seeded: the same seeds play
the same games, so the figures are exact, not luck. The bot decides from its seat state only (the arena's
`level_seat`). Before the strong level built crew first and kept its batteries and humans it won 14 of
these 20 three-player games."""
from __future__ import annotations

from functools import cache

from starbase_rules.arena import level_seat, play_match, random_seat, rotated, winner
from trucker_rules.game import GAME

SEEDS = range(20)


@cache
def _series(players: int) -> list:
    outcomes = []
    for seed in SEEDS:
        names = rotated(["bot"] + [f"random{n}" for n in range(1, players)], seed)
        seats = {n: level_seat(GAME, "strong") if n == "bot" else random_seat(GAME) for n in names}
        outcomes.append(play_match(GAME, seats, seed))
    return outcomes


def test_the_strong_bot_beats_two_random_seats_in_17_of_20_seeded_games():
    outcomes = _series(3)
    assert None not in outcomes, "every game reaches its end"
    wins = sum(winner(o) == "bot" for o in outcomes)
    assert wins >= 17, f"the strong bot won {wins} of {len(outcomes)}"


def test_the_strong_bot_ends_most_three_player_games_out_of_debt():
    outcomes = _series(3)
    credits = [s.score for o in outcomes for s in o.standings if s.player == "bot"]
    assert sum(c < 0 for c in credits) <= 3, credits
