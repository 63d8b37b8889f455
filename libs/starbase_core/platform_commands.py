"""The platform's own commands, decided around the engine by the platform transaction.

    {"type": "Resign"}               the seat's controller gives the seat up; a bot plays it from now on
    {"type": "TakeSeat"}             a substitute (`played_by`) takes a bot-played seat (the lobby sends it
                                     once the substitute accepted the table's invitation)
    {"type": "Undo", "count": 1}     take back my last `count` commands (`starbase_core.undo`)
    {"type": "AgreeUndo"}            in a rated game, agree to another's pending undo
    {"type": "RefuseUndo"}           … or refuse it
    {"type": "ProposePause"}, {"type": "AgreePause"}, {"type": "RefusePause"}, {"type": "ResumeClock"}
                                     pause the clock by agreement of every person seated (`starbase_core.pause`)
    {"type": "TimeOut"}              the clock's: a seat ran out of time under the `bot` or `lose` policy
                                     (`starbase_core.timeouts`; the one command only the clock sends)

These names are the platform's: an engine must not name a command so (none of the four does). Their
events are platform events (`meta.platform`), so the audit re-runs them through the same code, and a
resignation that ends the game ends it with the standings of `seats.resignation_standings`.
Only a person (a seat's player or a substitute) may send them: never a bot, the clock or the platform.
"""
from __future__ import annotations

from typing import Any, Literal, Union

from pydantic import Field, TypeAdapter
from pydantic_core import to_jsonable_python

from starbase_core.envelope import NewEvent
from starbase_core.gamestream import GameRecord, game_ended, is_rated, mark_command, platform_event
from starbase_core.pause import PAUSE_COMMANDS, AgreePause, ProposePause, RefusePause, ResumeClock, decide_pause
from starbase_core.seats import (
    CLOCK, PLATFORM, REPLACEMENT_LEVEL, SeatControl, check_controller, is_bot, resignation_standings,
)
from starbase_core.timeouts import TimeOut, ends_on_too_few_people, time_out_events
from starbase_core.undo import (
    COMMANDS_UNDONE, PLAYER_RESIGNED, SEAT_TAKEN, UNDO_AGREED, UNDO_REFUSED, UNDO_REQUESTED, UNDO_STEPS,
    owner_of,
)
from starbase_rules.contract import Command, Outcome, RuleViolation, parse_command


class Resign(Command):
    type: Literal["Resign"] = "Resign"


class TakeSeat(Command):
    type: Literal["TakeSeat"] = "TakeSeat"


class Undo(Command):
    type: Literal["Undo"] = "Undo"
    count: int = Field(default=1, ge=1, le=UNDO_STEPS, strict=True)


class AgreeUndo(Command):
    type: Literal["AgreeUndo"] = "AgreeUndo"


class RefuseUndo(Command):
    type: Literal["RefuseUndo"] = "RefuseUndo"


COMMANDS = TypeAdapter(Union[Resign, TakeSeat, Undo, AgreeUndo, RefuseUndo, ProposePause, AgreePause,
                             RefusePause, ResumeClock, TimeOut])
PLATFORM_COMMANDS = frozenset({"Resign", "TakeSeat", "Undo", "AgreeUndo", "RefuseUndo", "ProposePause",
                               "AgreePause", "RefusePause", "ResumeClock", "TimeOut"})


def is_platform_command(command: Any) -> bool:
    return isinstance(command, dict) and command.get("type") in PLATFORM_COMMANDS


def decide_platform(record: GameRecord, command: dict, actor: str | None, played_by: str | None,
                    seed: bytes) -> tuple[list[NewEvent], Outcome | None, bool]:
    """(the envelopes to append, the outcome if the game ends, whether the state must be refolded)."""
    parsed = parse_command(COMMANDS, command)
    if isinstance(parsed, TimeOut):
        events = time_out_events(record, actor, played_by)
    elif actor is None or played_by in (CLOCK, PLATFORM) or is_bot(played_by):
        raise RuleViolation("NOT_A_PERSON", f"{parsed.type} is a person's command: a seat's player or "
                            "its substitute sends it, never a bot, the clock or the platform")
    elif isinstance(parsed, TakeSeat):
        events = _take_seat(record, actor, played_by)
    else:
        check_controller(record.seats, actor, played_by)
        if isinstance(parsed, PAUSE_COMMANDS):
            events = decide_pause(record.pause, parsed, actor, record.seats.humans())
        else:
            events = _DECIDERS[type(parsed)](record, parsed, actor, played_by)
    draw_end = record.draw_end
    new = mark_command([platform_event(type_, data, actor=actor, draw_end=draw_end) for type_, data in events],
                       parsed.model_dump(mode="json"), played_by)
    outcome = None
    if ends_on_too_few_people(events):
        after = SeatControl.from_plain(record.seats.as_plain())
        after.resign(events[0][1]["player"], events[0][1]["by"], REPLACEMENT_LEVEL)
        if after.too_few_people():
            outcome = resignation_standings(record.players, after.resigned)
            new.append(game_ended(outcome, seed, draw_end, after.resigned))
    return new, outcome, any(type_ == COMMANDS_UNDONE for type_, _ in events)


Events = list[tuple[str, dict]]


def _resign(record: GameRecord, command: Resign, actor: str, played_by: str | None) -> Events:
    return [(PLAYER_RESIGNED, {"player": actor, "by": played_by or actor, "level": REPLACEMENT_LEVEL})]


def _take_seat(record: GameRecord, actor: str, played_by: str | None) -> Events:
    seats = record.seats
    if played_by is None:
        raise RuleViolation("NOT_A_SUBSTITUTE", "a seat is taken by a substitute, named as who plays it")
    if not is_bot(seats.controllers.get(actor)):
        raise RuleViolation("SEAT_NOT_FREE", f"seat {actor} is played by a person: only a bot's seat may be taken")
    if played_by in record.players or played_by in seats.controllers.values():
        raise RuleViolation("ALREADY_IN_GAME", f"{played_by} already plays in game {record.game_id}")
    if played_by in seats.quitters:
        raise RuleViolation("ALREADY_LEFT", f"{played_by} gave up a seat of game {record.game_id}")
    return [(SEAT_TAKEN, {"player": actor, "by": played_by})]


def _undo(record: GameRecord, command: Undo, actor: str, played_by: str | None) -> Events:
    steps, code = record.undo.takeable(owner_of(actor, played_by), command.count)
    if code is not None:
        raise RuleViolation(code, _MESSAGES[code])
    if any(step["draw_after"] != step["draw_before"] for step in steps):
        raise RuleViolation("UNDO_AFTER_DRAW", _MESSAGES["UNDO_AFTER_DRAW"])
    if any(_hides_something(record, data) for step in steps for data in step["events"]):
        raise RuleViolation("UNDO_REVEALED", _MESSAGES["UNDO_REVEALED"])
    taken = {"player": actor, "first_seq": steps[0]["first_seq"], "last_seq": steps[-1]["last_seq"],
             "steps": len(steps)}
    awaiting = [seat for seat in record.seats.humans() if seat != actor] if is_rated(record.options) else []
    if not awaiting:
        return [(COMMANDS_UNDONE, taken)]
    if [taken["first_seq"], taken["last_seq"]] in record.undo.refused:
        raise RuleViolation("UNDO_NOT_AGREED", "the other players refused to undo these commands")
    if record.undo.pending is not None:
        raise RuleViolation("UNDO_PENDING", "an undo request is waiting for answers")
    return [(UNDO_REQUESTED, {**taken, "awaiting": awaiting})]


def _answer(record: GameRecord, command: AgreeUndo | RefuseUndo, actor: str, played_by: str | None) -> Events:
    pending = record.undo.pending
    if pending is None:
        raise RuleViolation("NO_UNDO_REQUEST", "no undo request is waiting for an answer")
    if actor not in pending["awaiting"]:
        raise RuleViolation("NOT_ASKED", f"the undo request does not wait for seat {actor}")
    if isinstance(command, RefuseUndo):
        return [(UNDO_REFUSED, {"player": actor})]
    agreed: Events = [(UNDO_AGREED, {"player": actor})]
    if pending["awaiting"] == [actor]:
        agreed.append((COMMANDS_UNDONE, {key: pending[key] for key in ("player", "first_seq", "last_seq", "steps")}))
    return agreed


_DECIDERS: dict[type, Any] = {Resign: _resign, Undo: _undo, AgreeUndo: _answer, RefuseUndo: _answer}


def _hides_something(record: GameRecord, data: dict) -> bool:
    """Does any player or a spectator see this engine event otherwise than whole?"""
    engine = record.engine
    event = engine.parse_event(data)
    whole = to_jsonable_python(data)
    return any(to_jsonable_python(engine.redact(event, viewer)) != whole for viewer in [*record.players, None])


_MESSAGES = {
    "UNDO_NOTHING": "you have no command of your own to take back",
    "UNDO_OTHERS_ACTED": "another seat has played since your command: it can no longer be taken back",
    "UNDO_AFTER_DRAW": "a random draw was made since: it cannot be taken back",
    "UNDO_REVEALED": "hidden information was shown since: it cannot be taken back",
}
