"""The platform's transaction around a rules engine, written once for every writer of a game stream.

    new      = open_game(engine, players, options, seed)        # GameCreated + the engine's setup
    decision = decide_next(record, command, actor, seed)        # guards, decide, wrap, evolve, end
    stored   = await store.append(stream, decision.events, expected_seq=record.last_seq, command_id=…)
    record.advance(decision.state, stored)

The adjudicator writes every turn-based command with it; the audit re-runs every recorded command with
it and compares, so the audit checks exactly the code that wrote the stream; a real-time service (the
Trucker service, for the commands that end its phase) writes with it too, naming itself as `service`.

`decide_next` is pure (no I/O, clock, environment or global random: chance comes from the seed at the
record's draw counter) but, like the engine contract's `evolve`, it advances the record's engine state
in place: copying a state for every command would cost every command a deep copy. So whoever calls it
owns the record, and if the decision is not stored (a lost race, a crash) the record must be thrown
away and rebuilt from the stream (the adjudicator evicts it from its cache; the audit stops). A
refusal (RuleViolation) is raised before anything changes.

`run_optimistically` is the loop around it: read or catch up, decide, append with the expected seq, and
on `WrongExpectedSeq` do it all again, a bounded number of times, then `TooBusy`.

Who played a command (`played_by`, see `starbase_core.seats`) is checked here against the seat's
current controller, and a command played by the platform must be forced (`starbase_core.forced`). The
platform's own commands (resign, take a seat, undo: `starbase_core.platform_commands`) are decided
here too. A decision that undid commands has `refold` set and no state: the caller rebuilds the record
from the stream once it is stored (the adjudicator evicts it, the audit folds the stream so far).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, TypeVar

from starbase_core.envelope import NewEvent
from starbase_core.forced import forced_command
from starbase_core.gamestream import (
    BOTS, GameRecord, engine_options, game_created, game_ended, platform_option_problems, wrap,
)
from starbase_core.platform_commands import decide_platform, is_platform_command
from starbase_core.seats import PLATFORM, bots_problems, check_controller
from starbase_core.store import WrongExpectedSeq
from starbase_rules.contract import Game, Outcome, RuleViolation
from starbase_rules.fair import FairRng, commitment

REQUEST_ID = "request_id"      # meta key: the client's id of a move, recorded by a real-time service
PLAYED_BY = re.compile(r"^[!-~]{1,100}$")   # who played a command: a printable token

T = TypeVar("T")


@dataclass(frozen=True)
class Decision:
    events: list[NewEvent]     # to append, in order: the engine's (or CommandHadNoEffect), GameEnded last
    state: Any                 # the engine's state after them (the record's own, advanced in place)
    draw_end: int              # the FairRng counter after the command
    outcome: Outcome | None    # the final standings when this command ended the game
    refold: bool = False       # commands were undone: rebuild the record from the stream once stored


class InvariantsBroken(Exception):
    """With `check_invariants`: an event of the decision breaks the engine's invariants."""

    def __init__(self, event_type: str, problems: list[str]):
        super().__init__(f"after {event_type} the invariants break: {'; '.join(problems)}")
        self.event_type, self.problems = event_type, problems


class TooBusy(Exception):
    """Every attempt lost its race: the stream kept changing while it was decided on."""


def check_new_game(engine: Game, players: list[str], options: dict) -> None:
    """Refuse what no game may start with: a player list the engine cannot seat (the message names the
    engine's range), a bad platform option. The engine's own checks come in its `setup`."""
    check_players(engine, players)
    problems = platform_option_problems(options)
    if BOTS in options and not problems:
        problems = bots_problems(options[BOTS], list(players))
    if problems:
        raise RuleViolation("BAD_OPTION", "; ".join(problems))


def check_players(engine: Game, players: list[str]) -> None:
    """Refuse a player list the engine cannot seat (names, count): the message names the range."""
    if len(set(players)) != len(players) or not all(isinstance(p, str) and p for p in players):
        raise RuleViolation("BAD_PLAYERS", "players must be distinct, non-empty names")
    if not engine.min_players <= len(players) <= engine.max_players:
        raise RuleViolation("BAD_PLAYER_COUNT", f"{engine.name} takes {engine.min_players} to "
                            f"{engine.max_players} players, not {len(players)}")


def open_game(engine: Game, players: list[str], options: dict, seed: bytes) -> list[NewEvent]:
    """A new game's first envelopes: GameCreated (every option, the seed's commitment) and the engine's
    setup, which sees only its own options (`engine_options`). Raises RuleViolation."""
    check_new_game(engine, players, options)
    rng = FairRng(seed)
    setup = engine.setup(list(players), engine_options(options), rng)
    return [game_created(engine.name, players, options, commitment(seed), rng.used),
            *wrap(setup, actor=None, draw_end=rng.used)]


def realtime_service(record: GameRecord) -> str | None:
    """The service that plays the game's current phase in real time (Trucker's building), or None."""
    # An optional part of the contract: engines on the base answer it; a bare contract engine may not have it.
    phase_of = getattr(record.engine, "realtime_service", None)
    return phase_of(record.state) if phase_of is not None else None


def decide_next(record: GameRecord, command: dict, actor: str | None, seed: bytes, *,
                played_by: str | None = None, service: str | None = None, request_id: str | None = None,
                check_invariants: bool = False) -> Decision:
    """Decide one command on a game: what to append, and the state after it.

    `actor` None is the platform itself (a timer), never a player. `played_by` says who played the
    seat's command when not its own player (`starbase_core.seats`); it must control the seat now.
    `service` is the real-time service deciding (None: the adjudicator): a command is refused with
    REALTIME_PHASE while the game's phase is played by another service, one writer per phase.
    `request_id` (a real-time service's id of the client's move) is recorded beside the command, so a
    rebuilt service still knows the move was applied.
    """
    engine = record.engine
    if record.ended is not None:
        raise RuleViolation("GAME_OVER", f"game {record.game_id} is over")
    if actor is not None and actor not in record.players:
        raise RuleViolation("NOT_A_PLAYER", f"{actor!r} is not a player of game {record.game_id}")
    if played_by is not None and (not isinstance(played_by, str) or not PLAYED_BY.match(played_by)):
        raise RuleViolation("BAD_PLAYED_BY", "played_by must be 1 to 100 printable characters")
    played_by = None if played_by == actor else played_by
    if (playing := realtime_service(record)) is not None and playing != service:
        raise RuleViolation("REALTIME_PHASE", f"game {record.game_id} is in a real-time phase played on the "
                            f"{playing} service; it takes no other commands until that phase is over")
    if is_platform_command(command):
        platform, ended, refold = decide_platform(record, command, actor, played_by, seed)
        return Decision(events=platform, state=None if refold else record.state, draw_end=record.draw_end,
                        outcome=ended, refold=refold)
    if actor is not None:
        check_controller(record.seats, actor, played_by)
    parsed = engine.parse_command(command)
    if played_by == PLATFORM:
        _check_forced(record, parsed, actor)
    rng = FairRng(seed, start=record.draw_end)
    events = engine.decide(record.state, parsed, actor, rng)
    new = wrap(events, actor=actor, draw_end=rng.used, command=parsed.model_dump(mode="json"),
               played_by=played_by)
    if request_id is not None:
        new[0] = new[0].model_copy(update={"meta": {**new[0].meta, REQUEST_ID: request_id}})
    state = record.state
    for event in events:
        try:
            state = engine.evolve(state, event)
        except RuleViolation as error:   # keep "a refusal changed nothing" true even for a faulty engine
            raise RuntimeError(f"{engine.name} cannot apply its own {event.type}: {error}") from None
        if check_invariants and (problems := engine.invariants(state)):
            raise InvariantsBroken(event.type, problems)
    if (outcome := engine.outcome(state)) is not None:
        new.append(game_ended(outcome, seed, rng.used, record.seats.resigned))
    return Decision(events=new, state=state, draw_end=rng.used, outcome=outcome)


def _check_forced(record: GameRecord, parsed: Any, actor: str | None) -> None:
    """A command the platform plays for a seat must be that seat's only possible move."""
    forced = forced_command(record.engine, record.state, actor) if actor is not None else None
    if forced is None or record.engine.parse_command(forced) != parsed:
        raise RuleViolation("NOT_FORCED", f"seat {actor} has a choice here: the platform plays only forced moves")


async def run_optimistically(attempt: Callable[[], Awaitable[T]], *, attempts: int) -> T:
    """Run `attempt` (read or catch up, decide, append with the expected seq) until it does not raise
    WrongExpectedSeq, at most `attempts` times; then TooBusy. An attempt raises WrongExpectedSeq for any
    "the stream moved while I decided" (the store does when an append loses its race)."""
    for _ in range(attempts):
        try:
            return await attempt()
        except WrongExpectedSeq:
            continue
    raise TooBusy(f"the stream kept changing through {attempts} attempts")
