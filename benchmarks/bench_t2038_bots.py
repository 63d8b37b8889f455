"""2038 bot strength: its win rate against two seats that pick uniformly among the legal moves.

Bounded by a game count, a command cap per game and a wall-clock budget; prints figures, never fails on them.
"""
from __future__ import annotations

import random
import time

from starbase_rules.arena import wilson
from starbase_rules.contract import RuleViolation
from starbase_rules.fair import FairRng
from t2038.bots import bot_command
from t2038.game import GAME

GAMES = 12
MAX_COMMANDS = 4000
BUDGET_SECONDS = 150
SEATS = ["bot", "r1", "r2"]


def random_command(state, player: str, rnd: random.Random, rng):
    """A uniformly chosen legal move `decide` accepts (the bot's move if none of a few draws is)."""
    actions = GAME.legal_actions(state, player)
    rnd.shuffle(actions)
    for action in actions[:8]:
        try:
            command = GAME.parse_command(action)
            return command, GAME.decide(state, command, player, rng)
        except RuleViolation:
            continue
    command = bot_command(state, player, rnd)
    return command, GAME.decide(state, command, player, rng)


def play(seed: int) -> tuple[str | None, str]:
    """One game with the bot in seat `seed % 3`; returns (winner or None when capped, who went bankrupt)."""
    seats = SEATS[seed % 3:] + SEATS[:seed % 3]
    rng = FairRng(f"bench-bots-{seed}".encode())
    rnd = random.Random(seed)
    state = GAME.initial_state()
    for event in GAME.setup(seats, {"variant": "short"}, rng):
        state = GAME.evolve(state, event)
    for _ in range(MAX_COMMANDS):
        outcome = GAME.outcome(state)
        if outcome is not None:
            return outcome.standings[0].player, state.bankrupt
        actor = GAME.to_act(state)[0]
        if actor == "bot":
            command = bot_command(state, actor, rnd)
            events = GAME.decide(state, command, actor, rng)
        else:
            _, events = random_command(state, actor, rnd, rng)
        for event in events:
            state = GAME.evolve(state, event)
    return None, state.bankrupt


def main() -> None:
    started = time.monotonic()
    played = wins = capped = bot_bankrupt = 0
    for seed in range(GAMES):
        if time.monotonic() - started > BUDGET_SECONDS:
            break
        winner, bankrupt = play(seed)
        played += 1
        wins += winner == "bot"
        capped += winner is None
        bot_bankrupt += bankrupt == "bot"
    low, high = wilson(wins, played)
    print(f"t2038: bot vs 2 random seats (short game): won {wins} of {played} ({wins / max(played, 1):.2f}, "
          f"95% {low:.2f}-{high:.2f}; chance 0.33), bankrupt {bot_bankrupt}, unfinished {capped}, "
          f"{time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
