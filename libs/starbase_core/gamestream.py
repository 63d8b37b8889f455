"""A game's stream, as the platform writes it around a rules engine.

    seq 1      GameCreated {game, players, options, commitment}      meta.draw_end
    seq 2..    the engine's setup events                             meta.draw_end
    …          per accepted command: the engine's events             meta.draw_end, meta.command (first)
               or, when a command changed nothing, CommandHadNoEffect
    last       GameEnded {standings, reason, seed}                   (appended with the final command)

`meta.draw_end` is the FairRng counter after the command that produced the envelope, so the next command
draws from there, and an auditor holding the revealed seed can re-derive every draw.
`meta.command` (the validated command, as JSON) makes every command re-runnable by an auditor.
Engine events are wrapped as `type = event.type`, `data = event.model_dump()`.

An engine may name its own events as it likes, `GameEnded` included, so the platform's envelopes are
marked `meta.platform = true`: `ends_game` is the one answer to "is this the end of the game" (every
service asks it), `is_platform` tells the platform's three types; never the type alone.
The transaction that writes these envelopes is `starbase_core.transaction`.

Table options are of two kinds: the platform's own (`PLATFORM_OPTIONS`: the time controls
(`timecontrol.py`), read by the decision clock; `private` and `guests`, read by scoring) and the engine's. `GameCreated.options` records them all; `engine.setup` gets only
`engine_options(options)`, in the adjudicator and in the audit's re-run alike, so an engine that refuses
unknown options still takes a table with a clock, and the audit re-runs exactly the setup that was run.

Around the engine's commands the platform has its own (`starbase_core.platform_commands`): a player
resigns, a substitute takes a seat, a player takes back their last command(s). Each is written as a
platform event (`PlayerResigned`, `SeatTaken`, `UndoRequested`, `UndoAgreed`, `UndoRefused`,
`CommandsUndone`; pausing the clock by agreement: `starbase_core.pause`), folded here: who controls each seat (`starbase_core.seats`, `meta.played_by`) and
what may be undone (`starbase_core.undo`). Two more platform options: `bots` ({seat id: level}, the
seats a bot plays from the start) and `rated` (true unless the table says otherwise).

`GameRecord` is what a stream folds into; `redact` is what a viewer may see of one envelope.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from starbase_core import timecontrol
from starbase_core.envelope import GENESIS_HASH, Envelope, NewEvent, check_stream_name
from starbase_core.pause import PAUSE_TYPES, PauseLog
from starbase_core.seats import SeatControl, bots_problems
from starbase_core.undo import (
    PLAYER_RESIGNED, SEAT_TAKEN, SEAT_TYPES, UNDO_TYPES, RefoldNeeded, UndoLog, undone_ranges, within,
)
from starbase_rules.contract import Event, Game, Outcome
from starbase_rules.engine import Engine

GAME_CREATED = "GameCreated"
GAME_ENDED = "GameEnded"
NO_EFFECT = "CommandHadNoEffect"
PLATFORM_TYPES = frozenset({GAME_CREATED, GAME_ENDED, NO_EFFECT, *SEAT_TYPES, *UNDO_TYPES, *PAUSE_TYPES})

DECISION_SECONDS = "decision_seconds"    # seconds a player has for a decision (0: no clock)
# Written by the lobby when it creates the game: a private table's game (readers who were not at the
# table see none of it), and the seats held by guests (never rated).
PRIVATE = "private"
GUESTS = "guests"
BOTS = "bots"           # {seat id: bot level}: the seats a bot plays from the start
RATED = "rated"         # false: the game changes nobody's rating (absent: rated)
PLATFORM_OPTIONS = frozenset({PRIVATE, GUESTS, BOTS, RATED}) | timecontrol.OPTIONS   # the time controls: timecontrol.py


def is_rated(options: dict) -> bool:
    return options.get(RATED, True) is not False


def engine_options(options: dict) -> dict:
    """The table options meant for the rules engine: all but the platform's own."""
    return {key: value for key, value in options.items() if key not in PLATFORM_OPTIONS}


def platform_option_problems(options: dict) -> list[str]:
    """What is wrong with the platform's options of a table (empty: nothing)."""
    problems = []
    if DECISION_SECONDS in options:
        value = options[DECISION_SECONDS]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < float("inf"):
            problems.append(f"{DECISION_SECONDS} must be a number of seconds, 0 or more (0: no clock), "
                            f"not {value!r}")
    for key in timecontrol.OPTIONS - {DECISION_SECONDS, timecontrol.TIMEOUT_POLICY}:
        value = options.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < float("inf"):
            problems.append(f"{key} must be a number, 0 or more (0: off), not {value!r}")
    if options.get(timecontrol.TIMEOUT_POLICY, timecontrol.DEFAULT_MOVE) not in timecontrol.POLICIES:
        problems.append(f"{timecontrol.TIMEOUT_POLICY} must be one of {', '.join(timecontrol.POLICIES)}")
    if PRIVATE in options and not isinstance(options[PRIVATE], bool):
        problems.append(f"{PRIVATE} must be true or false")
    if GUESTS in options and not (isinstance(options[GUESTS], list)
                                  and all(isinstance(p, str) for p in options[GUESTS])):
        problems.append(f"{GUESTS} must be a list of player ids")
    if RATED in options and not isinstance(options[RATED], bool):
        problems.append(f"{RATED} must be true or false")
    if BOTS in options:
        problems += bots_problems(options[BOTS])
    return problems


def is_platform(envelope: Envelope) -> bool:
    """Written by the platform around the engine (GameCreated, GameEnded, CommandHadNoEffect, and the
    platform commands' events)."""
    return envelope.meta.get("platform") is True and envelope.type in PLATFORM_TYPES


def ends_game(envelope: Envelope) -> bool:
    """The platform's GameEnded (standings, reason, revealed seed), not an engine event of that name."""
    return envelope.type == GAME_ENDED and is_platform(envelope)


class CorruptStream(Exception):
    pass


def game_stream(game_id: str) -> str:
    return check_stream_name(f"game.{game_id}")


def game_created(game_name: str, players: list[str], options: dict, commitment: str,
                 draw_end: int) -> NewEvent:
    return NewEvent(type=GAME_CREATED, meta={"draw_end": draw_end, "platform": True}, data={
        "game": game_name, "players": list(players), "options": dict(options), "commitment": commitment,
    })


def game_ended(outcome: Outcome, seed: bytes, draw_end: int, resigned: list[str] | None = None) -> NewEvent:
    """`resigned` (when anyone did, in order) tells scoring the game was abandoned."""
    data = {"standings": [standing.model_dump() for standing in outcome.standings],
            "reason": outcome.reason, "seed": seed.hex()}
    if resigned:
        data["resigned"] = list(resigned)
    return NewEvent(type=GAME_ENDED, meta={"draw_end": draw_end, "platform": True}, data=data)


def platform_event(type_: str, data: dict, *, actor: str | None, draw_end: int) -> NewEvent:
    return NewEvent(type=type_, data=data, actor=actor, meta={"draw_end": draw_end, "platform": True})


def wrap(events: Iterable[Event], *, actor: str | None, draw_end: int,
         command: dict | None = None, played_by: str | None = None) -> list[NewEvent]:
    """Engine events as new envelopes; the first carries the command (and who played it, when not the
    seat's own player: `meta.played_by`), or a no-effect marker does."""
    wrapped = [NewEvent(type=event.type, data=event.model_dump(mode="json"), actor=actor,
                        meta={"draw_end": draw_end}) for event in events]
    if command is not None:
        if not wrapped:
            wrapped = [NewEvent(type=NO_EFFECT, actor=actor, meta={"draw_end": draw_end, "platform": True})]
        return mark_command(wrapped, command, played_by)
    return wrapped


def mark_command(envelopes: list[NewEvent], command: dict, played_by: str | None) -> list[NewEvent]:
    """The command (and `played_by`, when given) on the first envelope a command produced."""
    extra = {"command": command, **({"played_by": played_by} if played_by is not None else {})}
    return [envelopes[0].model_copy(update={"meta": {**envelopes[0].meta, **extra}}), *envelopes[1:]]


@dataclass
class GameRecord:
    """A game folded from its stream: the engine's state plus what the platform tracks around it."""

    game_id: str
    engine: Game
    players: list[str]
    options: dict
    commitment: str
    state: Any
    last_seq: int = 0
    last_hash: str = GENESIS_HASH
    draw_end: int = 0
    ended: dict | None = None          # GameEnded's data once the game is over
    events: int = 0                    # engine events folded (not counting those taken back)
    seats: SeatControl = field(default_factory=SeatControl)     # who plays each seat
    undo: UndoLog = field(default_factory=UndoLog)             # what may be taken back
    pause: PauseLog = field(default_factory=PauseLog)          # the clock paused by agreement (pause.py)

    @property
    def game_name(self) -> str:
        return self.engine.name

    def apply(self, envelopes: Iterable[Envelope]) -> "GameRecord":
        """Fold envelopes read from the stream. The engine events an undo among them takes back are
        skipped; an undo of events folded before raises `RefoldNeeded` before anything changes."""
        envelopes = list(envelopes)
        undone = undone_ranges(envelopes)
        if any(first <= self.last_seq for first, _ in undone):
            raise RefoldNeeded(f"game {self.game_id}: an undo takes back seqs this record folded")
        for envelope in envelopes:
            if self._account(envelope) and not within(envelope.seq, undone):
                self.state = self.engine.evolve(self.state, self.engine.parse_event(envelope.data))
                self.events += 1
        return self

    def advance(self, state: Any, stored: Iterable[Envelope]) -> "GameRecord":
        """Move past envelopes whose engine events are already folded into `state` (a decision of
        `starbase_core.transaction`, now stored): no event is evolved twice. A decision that undid
        commands has no such state: rebuild the record from the stream instead (`RefoldNeeded`)."""
        stored = list(stored)
        if undone_ranges(stored):
            raise RefoldNeeded(f"game {self.game_id}: an undo is folded from the stream, not advanced")
        for envelope in stored:
            if self._account(envelope):
                self.events += 1
        self.state = state
        return self

    def _account(self, envelope: Envelope) -> bool:
        """Note one envelope's place, draw counter, seats, undo log and end; True when it holds an
        engine event."""
        if envelope.seq != self.last_seq + 1:
            raise CorruptStream(f"{envelope.stream}: seq {envelope.seq} after {self.last_seq}")
        draw_before = self.draw_end
        self.last_seq, self.last_hash = envelope.seq, envelope.hash
        self.draw_end = envelope.meta.get("draw_end", self.draw_end)
        engine_event = not is_platform(envelope)
        if not engine_event:
            self._platform(envelope)
        self.undo.observe(envelope, draw_before, engine_event)
        return engine_event

    def _platform(self, envelope: Envelope) -> None:
        data = envelope.data
        if envelope.type == GAME_ENDED:     # i.e. ends_game, asked once per envelope on a replay
            self.ended = data
        elif envelope.type == GAME_CREATED:
            self.seats = SeatControl.opening(list(data["players"]), dict(data["options"].get(BOTS) or {}))
        elif envelope.type == PLAYER_RESIGNED:
            self.seats.resign(data["player"], data["by"], data["level"])
        elif envelope.type == SEAT_TAKEN:
            self.seats.take(data["player"], data["by"])
        if envelope.type in PAUSE_TYPES or envelope.type in SEAT_TYPES:
            self.pause.observe(envelope, seat_change=envelope.type in SEAT_TYPES)


def replay(game_id: str, envelopes: list[Envelope], get_game: Callable[[str], Game]) -> GameRecord:
    """Rebuild a game from its whole stream (which must start with GameCreated)."""
    if not envelopes or envelopes[0].type != GAME_CREATED or not is_platform(envelopes[0]):
        raise CorruptStream(f"game {game_id}: the stream does not start with {GAME_CREATED}")
    created = envelopes[0].data
    engine = get_game(created["game"])
    record = GameRecord(game_id=game_id, engine=engine, players=list(created["players"]),
                        options=dict(created["options"]), commitment=created["commitment"],
                        state=engine.initial_state())
    return record.apply(envelopes)


def same_for_every_viewer(engine: Game, envelope: Envelope) -> bool:
    """Whether `redact` gives every viewer, spectators too, the same of this envelope (so one push
    serves every socket watching the game): a platform envelope, or an event the engine shows everyone
    alike (`Engine.shows_everyone_alike`: no secret fields). False when unsure (an engine of its own kind)."""
    if is_platform(envelope):
        return True
    return isinstance(engine, Engine) and engine.shows_everyone_alike(envelope.type)


def redact(engine: Game, envelope: Envelope, viewer: str | None) -> dict | None:
    """What `viewer` (None: a spectator) may see of an envelope, or None when nothing at all.

    `platform` tells the platform's events from engine events of the same name; `played_by` who played
    the command, when not the seat's own player (a bot, a substitute, the clock, the platform). Hashes
    and the rest of meta stay out: a hash over hidden data could be brute-forced back to it (a card is one of
    a few values), and the audit trail is for after the game. The public log after `GameEnded` is whole.
    """
    data: dict | None
    if is_platform(envelope) or (isinstance(engine, Engine) and engine.shown_as_stored(envelope.data)):
        data = dict(envelope.data)          # nothing secret, stored as the current class dumps it
    else:
        data = engine.redact(engine.parse_event(envelope.data), viewer)
        if data is None:
            return None
    return {"stream": envelope.stream, "seq": envelope.seq, "type": envelope.type, "data": data,
            "actor": envelope.actor, "time": envelope.time, "platform": is_platform(envelope),
            "played_by": envelope.meta.get("played_by")}
