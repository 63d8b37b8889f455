"""Bot levels: a policy per level (`easy`, `normal`, `strong`), chosen per seat, that sees only what the
seat's player may know.

    command = seat_choice(engine, "strong", state, player, rnd)    # engines that play levels
    command = choose(engine, "normal", view, legal, player, rnd)   # the others; JSON, or None: no move

A policy never gets what the seat's player may not know: another player's hand, a face-down tile or
the order of a pile. (The engines' own `bot_command(state, …)` take the whole state, so the worker does
not call them.)

An engine plays its own levels in one of two ways:
- the seat's state: `bot_levels` (the levels it plays), `seat_state(state, seat)` (the state with what
  the seat may not know replaced: another's hand, a face-down pile's order; 21Moon hides nothing) and
  `level_command(seat_state, seat, rnd, level) -> Command | None`. The worker (`seat_choice`) hands the
  level bot that seat state only, so its bots reach their strength through the engine's own look-ahead
  while hidden information stays hidden (the engine's tests check `seat_state` against its view);
- the view: `view_bots = {"strong": f, …}` with `f(view, legal, player, rnd) -> command | None`.
A level the engine plays neither way gets a random legal action that parses as a command, preferring
one that moves the game on over a free action (the engine base's bot, over the view). A policy must be
deterministic in `rnd`, which the worker seeds per game, seq and seat, so every replica picks the same
move for the same decision.
"""
from __future__ import annotations

import random
from typing import Any, Callable

from starbase_core.seats import BOT_LEVELS
from starbase_rules.contract import Game, RuleViolation

ViewPolicy = Callable[[dict, list[dict], str, random.Random], "dict | None"]


def _parses(engine: Game, action: dict) -> bool:
    """A listed action that is a whole command (some engines list shapes with parameters left out)."""
    try:
        engine.parse_command(action)
    except (RuleViolation, ValueError, TypeError):
        return False
    return True


def any_legal(engine: Game, view: dict, legal: list[dict], player: str, rnd: random.Random) -> dict | None:
    whole = [action for action in legal if isinstance(action, dict) and _parses(engine, action)]
    free = getattr(getattr(engine, "info", None), "free_actions", ()) or ()
    owed = [action for action in whole if action.get("type") not in free]
    pool = owed or whole
    return dict(rnd.choice(pool)) if pool else None


def plays_from_seat_state(engine: Game, level: str) -> bool:
    return level in (getattr(engine, "bot_levels", None) or ()) and hasattr(engine, "seat_state")


def seat_choice(engine: Game, level: str, state: Any, player: str, rnd: random.Random) -> dict | None:
    """The level bot's command from the seat's own state (`engine.seat_state`), as JSON; None: no move."""
    own = engine.seat_state(state, player)     # type: ignore[attr-defined]
    chosen = engine.level_command(own, player, rnd, level)     # type: ignore[attr-defined]
    return None if chosen is None else _as_json(chosen)


def choose(engine: Game, level: str, view: dict, legal: list[dict], player: str,
           rnd: random.Random) -> dict | None:
    if level not in BOT_LEVELS:
        raise ValueError(f"no bot level {level!r}")
    own: dict[str, ViewPolicy] = getattr(engine, "view_bots", None) or {}
    if level in own:
        chosen = own[level](view, legal, player, rnd)
        return None if chosen is None else _as_json(chosen)
    return any_legal(engine, view, legal, player, rnd)


def _as_json(command: Any) -> dict:
    return command.model_dump(mode="json") if hasattr(command, "model_dump") else dict(command)
