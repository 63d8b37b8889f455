"""Table options, checked when the table is opened (not when its game starts).

- The platform's own: the time controls (`starbase_core.timecontrol.problems`: `decision_seconds` 0 or
  5 s to 30 days, `days_per_move` 0 or 1 to 30 whole days, `bank_seconds` 0 or 10 s to 30 days,
  `increment_seconds` 0 or 1 s to a day and only with a bank, `timeout_policy` `default_move`), each
  bounded so that no value can stop or overflow the clock.
  `private`, `guests` and `bots` are the lobby's to write (from the table and its seats), never a
  player's. `rated` (true or false, default true) is the table's: see docs/seats.md for what counts.
- The engine's: the engine's own `setup` is the check (each engine refuses options it does not take),
  run with stand-in players and a throwaway seed: nothing is stored, no game starts. Its refusal keeps
  the engine's message; its code becomes UNKNOWN_OPTION or BAD_OPTION. An engine that fails in any
  other way on these options refuses them as BAD_OPTION, without its internals.

When engines declare their options (type, range, default), this reads the declaration instead.
"""
from __future__ import annotations

from starbase_core import timecontrol
from starbase_core.gamestream import BOTS, GUESTS, PRIVATE, RATED, engine_options
from starbase_rules.contract import RuleViolation
from starbase_rules.fair import FairRng

from lobby.exceptions import Invalid

LOBBY_WRITTEN = (PRIVATE, GUESTS, BOTS)
OPTION_CODES = ("UNKNOWN_OPTION", "BAD_OPTION")


def check_options(engine, options: dict, seats: int) -> None:
    for key in LOBBY_WRITTEN:
        if key in options:
            raise Invalid(f"{key!r} is not a table option: the lobby sets it (use the table's 'private' and "
                          "'bots' fields)", "UNKNOWN_OPTION")
    if RATED in options and not isinstance(options[RATED], bool):
        raise Invalid(f"{RATED} is true or false", "BAD_OPTION")
    problems = timecontrol.problems(options)
    if problems:
        raise Invalid("; ".join(problems), "BAD_OPTION")
    try:
        engine.setup([f"seat{n}" for n in range(seats)], engine_options(options), FairRng(b"option check"))
    except RuleViolation as refusal:
        code = refusal.code if refusal.code in OPTION_CODES else "BAD_OPTION"
        raise Invalid(refusal.message, code) from None
    except Exception:       # an engine that trips over a value it did not expect: still the option's fault
        raise Invalid(f"{engine.name} cannot be set up with these options: check their names and values",
                      "BAD_OPTION") from None
