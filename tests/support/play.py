"""Helpers to play games through an Adjudicator with the engine's own bots."""
from __future__ import annotations

import random
import uuid


async def play_to_end(adjudicator, store, game_id: str, seed: int = 1, max_commands: int = 5000) -> int:
    """Bots play the game to its end through `adjudicator.submit`; returns the number of commands.
    (`store` is kept for callers that pass it; the adjudicator's own record is the state used.)"""
    bots = random.Random(seed)
    for count in range(max_commands):
        record = await adjudicator.record(game_id)
        if record.ended is not None:
            return count
        actors = record.engine.to_act(record.state)
        actor = actors[bots.randrange(len(actors))]
        command = record.engine.bot_command(record.state, actor, bots)
        await adjudicator.submit(game_id, actor, command.model_dump(mode="json"), uuid.uuid4().hex)
    raise AssertionError(f"game {game_id} did not end in {max_commands} commands")
