"""Forced moves: a seat whose only legal action leaves it no choice, which the platform plays at once.

    forced_command(engine, state, player)  -> the command as JSON, or None when the seat has a choice

An engine may say it itself with `forced_command(state, player) -> Command | None` (cheap, and the
only way to call a move with parameters forced). Without it, the platform's rule: the seat's legal
actions are exactly one, and that one takes no parameters (`{"type": "Pass"}`, `{"type": "EndRoute"}`):
a single entry with parameters may stand for a choice the list does not spell out, so it is never
taken as forced.

Who plays them: the bot worker (`services/bots`), right after the command that led there, with
`meta.played_by = "platform"` and the command id `forced:<seq>:<seat>`; the platform transaction
accepts a command played by the platform only if it is forced (NOT_FORCED), so the audit checks every
one of them. Why there and not inside the adjudicator's transaction: `legal_actions` costs 30 to 55 ms
a call on the 18xx engines, which would double the cost of every command on the request path.
"""
from __future__ import annotations

from typing import Any

from starbase_rules.contract import Game

PLAIN_KEYS = frozenset({"type", "v"})


def forced_command(engine: Game, state: Any, player: str) -> dict | None:
    own = getattr(engine, "forced_command", None)
    if own is not None:
        command = own(state, player)
        if command is None:
            return None
        return command.model_dump(mode="json") if hasattr(command, "model_dump") else dict(command)
    actions = engine.legal_actions(state, player)
    if len(actions) == 1 and isinstance(actions[0], dict) and set(actions[0]) <= PLAIN_KEYS \
            and isinstance(actions[0].get("type"), str):
        return dict(actions[0])
    return None
