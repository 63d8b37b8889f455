"""Table options, checked when the table is opened (not when its game starts).

- The platform's own (`starbase_core.gamestream`): `decision_seconds` is 0 (no clock) or 5 s to 30 days.
  `private`, `guests` and `bots` are the lobby's to write (from the table and its seats), never a
  player's. `rated` (true or false, default true) is the table's: see docs/seats.md for what counts.
- The engine's: the engine's own `setup` is the check (each engine refuses options it does not take),
  run with stand-in players and a throwaway seed: nothing is stored, no game starts. Its refusal keeps
  the engine's message; its code becomes UNKNOWN_OPTION or BAD_OPTION. An engine that fails in any
  other way on these options refuses them as BAD_OPTION, without its internals.

When engines declare their options (type, range, default), this reads the declaration instead.
"""
from __future__ import annotations

import math

from starbase_core.gamestream import BOTS, DECISION_SECONDS, GUESTS, PRIVATE, RATED, engine_options
from starbase_rules.contract import RuleViolation
from starbase_rules.fair import FairRng

from lobby.exceptions import Invalid

MIN_DECISION_SECONDS = 5
MAX_DECISION_SECONDS = 30 * 24 * 3600
LOBBY_WRITTEN = (PRIVATE, GUESTS, BOTS)
OPTION_CODES = ("UNKNOWN_OPTION", "BAD_OPTION")


def check_options(engine, options: dict, seats: int) -> None:
    for key in LOBBY_WRITTEN:
        if key in options:
            raise Invalid(f"{key!r} is not a table option: the lobby sets it (use the table's 'private' and "
                          "'bots' fields)", "UNKNOWN_OPTION")
    if RATED in options and not isinstance(options[RATED], bool):
        raise Invalid(f"{RATED} is true or false", "BAD_OPTION")
    if DECISION_SECONDS in options:
        check_decision_seconds(options[DECISION_SECONDS])
    try:
        engine.setup([f"seat{n}" for n in range(seats)], engine_options(options), FairRng(b"option check"))
    except RuleViolation as refusal:
        code = refusal.code if refusal.code in OPTION_CODES else "BAD_OPTION"
        raise Invalid(refusal.message, code) from None
    except Exception:       # an engine that trips over a value it did not expect: still the option's fault
        raise Invalid(f"{engine.name} cannot be set up with these options: check their names and values",
                      "BAD_OPTION") from None


def check_decision_seconds(value) -> None:
    ok = (not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value)
          and (value == 0 or MIN_DECISION_SECONDS <= value <= MAX_DECISION_SECONDS))
    if not ok:
        raise Invalid(f"{DECISION_SECONDS} is 0 (no clock) or {MIN_DECISION_SECONDS} to {MAX_DECISION_SECONDS} "
                      f"seconds (30 days)", "BAD_OPTION")
