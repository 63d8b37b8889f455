"""The decision clock's time-out of a seat, under the table's `bot` or `lose` policy. Pure.

    {"type": "TimeOut"}     sent by the clock (`played_by` "clock") for the seat whose time ran out

It is written as the resignation path writes a seat given up (`PlayerResigned {player, by, level}`,
plus `timeout`: the policy), so seats, substitutes, the lobby's table and scoring treat it as one:
the `normal` bot plays the seat from then on, the seat is offered to substitutes, and whoever held it
(`by`: the player or the substitute) counts as having given it up.

- `lose`: exactly a resignation. With two people the game ends at once, the one who ran out of time
  last (`seats.resignation_standings`); with more, the game goes on while two people still play.
- `bot`: the seat is handed to the bot and the game always goes on, even against bots alone.

The platform checks what the stream can say: the table's policy is `bot` or `lose`, the clock is not
paused, the seat is held by a person and owes a decision now (the engine lists it in `to_act`). That
the time had indeed run out is the clock's word (it is the only caller sending `played_by` "clock"):
the audit re-runs these checks, not the clock's arithmetic on server times.
"""
from __future__ import annotations

from typing import Literal

from starbase_core.seats import CLOCK, REPLACEMENT_LEVEL, is_bot
from starbase_core.timecontrol import BOT, LOSE, TIMEOUT_POLICY
from starbase_core.undo import PLAYER_RESIGNED
from starbase_rules.contract import Command, RuleViolation

TIMEOUT_POLICIES = (BOT, LOSE)


class TimeOut(Command):
    type: Literal["TimeOut"] = "TimeOut"


def time_out_events(record, actor: str | None, played_by: str | None) -> list[tuple[str, dict]]:
    """The events of the clock's `TimeOut` for seat `actor` of `record` (a `GameRecord`)."""
    if actor is None or played_by != CLOCK:
        raise RuleViolation("NOT_THE_CLOCK", "a time-out is the decision clock's command, for a seat")
    policy = record.options.get(TIMEOUT_POLICY)
    if policy not in TIMEOUT_POLICIES:
        raise RuleViolation("NO_TIMEOUT_POLICY", f"this table's time-out policy is not {BOT!r} or {LOSE!r}")
    if record.pause.paused:
        raise RuleViolation("CLOCK_PAUSED", "the clock is paused: nobody runs out of time")
    controller = record.seats.controllers.get(actor)
    if controller is None or is_bot(controller):
        raise RuleViolation("NOT_IN_CONTROL", f"seat {actor} is played by a bot: it has no person to time out")
    if actor not in record.engine.to_act(record.state):
        raise RuleViolation("NOT_TO_ACT", f"seat {actor} owes no decision now")
    return [(PLAYER_RESIGNED, {"player": actor, "by": controller, "level": REPLACEMENT_LEVEL, "timeout": policy})]


def ends_on_too_few_people(events: list[tuple[str, dict]]) -> bool:
    """Whether a seat given up here ends the game when too few people remain (not a `bot` time-out)."""
    return events[0][0] == PLAYER_RESIGNED and events[0][1].get("timeout") != BOT
