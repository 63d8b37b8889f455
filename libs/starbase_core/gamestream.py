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

`GameRecord` is what a stream folds into; `redact` is what a viewer may see of one envelope.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from starbase_core import timecontrol
from starbase_core.envelope import GENESIS_HASH, Envelope, NewEvent, check_stream_name
from starbase_rules.contract import Event, Game, Outcome

GAME_CREATED = "GameCreated"
GAME_ENDED = "GameEnded"
NO_EFFECT = "CommandHadNoEffect"
PLATFORM_TYPES = frozenset({GAME_CREATED, GAME_ENDED, NO_EFFECT})

DECISION_SECONDS = "decision_seconds"    # seconds a player has for a decision (0: no clock)
# Written by the lobby when it creates the game: a private table's game (readers who were not at the
# table see none of it), and the seats held by guests (never rated).
PRIVATE = "private"
GUESTS = "guests"
PLATFORM_OPTIONS = frozenset({PRIVATE, GUESTS}) | timecontrol.OPTIONS   # the time controls: timecontrol.py


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
    return problems


def is_platform(envelope: Envelope) -> bool:
    """Written by the platform around the engine (GameCreated, GameEnded, CommandHadNoEffect)."""
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


def game_ended(outcome: Outcome, seed: bytes, draw_end: int) -> NewEvent:
    return NewEvent(type=GAME_ENDED, meta={"draw_end": draw_end, "platform": True}, data={
        "standings": [standing.model_dump() for standing in outcome.standings],
        "reason": outcome.reason,
        "seed": seed.hex(),
    })


def wrap(events: Iterable[Event], *, actor: str | None, draw_end: int,
         command: dict | None = None) -> list[NewEvent]:
    """Engine events as new envelopes; the first carries the command, or a no-effect marker does."""
    wrapped = [NewEvent(type=event.type, data=event.model_dump(mode="json"), actor=actor,
                        meta={"draw_end": draw_end}) for event in events]
    if command is not None:
        if not wrapped:
            wrapped = [NewEvent(type=NO_EFFECT, actor=actor, meta={"draw_end": draw_end, "platform": True})]
        wrapped[0] = wrapped[0].model_copy(update={"meta": {**wrapped[0].meta, "command": command}})
    return wrapped


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
    events: int = 0                    # engine events folded

    @property
    def game_name(self) -> str:
        return self.engine.name

    def apply(self, envelopes: Iterable[Envelope]) -> "GameRecord":
        """Fold envelopes read from the stream."""
        for envelope in envelopes:
            if self._account(envelope):
                self.state = self.engine.evolve(self.state, self.engine.parse_event(envelope.data))
        return self

    def advance(self, state: Any, stored: Iterable[Envelope]) -> "GameRecord":
        """Move past envelopes whose engine events are already folded into `state` (a decision of
        `starbase_core.transaction`, now stored): no event is evolved twice."""
        for envelope in stored:
            self._account(envelope)
        self.state = state
        return self

    def _account(self, envelope: Envelope) -> bool:
        """Note one envelope's place, draw counter and end; True when it holds an engine event."""
        if envelope.seq != self.last_seq + 1:
            raise CorruptStream(f"{envelope.stream}: seq {envelope.seq} after {self.last_seq}")
        self.last_seq, self.last_hash = envelope.seq, envelope.hash
        self.draw_end = envelope.meta.get("draw_end", self.draw_end)
        if not is_platform(envelope):
            self.events += 1
            return True
        if envelope.type == GAME_ENDED:     # i.e. ends_game, asked once per envelope on a replay
            self.ended = envelope.data
        return False


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


def redact(engine: Game, envelope: Envelope, viewer: str | None) -> dict | None:
    """What `viewer` (None: a spectator) may see of an envelope, or None when nothing at all.

    `platform` tells the platform's GameCreated / GameEnded / CommandHadNoEffect from engine events of
    the same name. Hashes and meta stay out: a hash over hidden data could be brute-forced back to it (a card is one of
    a few values), and the audit trail is for after the game. The public log after `GameEnded` is whole.
    """
    data: dict | None
    if is_platform(envelope):
        data = dict(envelope.data)
    else:
        data = engine.redact(engine.parse_event(envelope.data), viewer)
        if data is None:
            return None
    return {"stream": envelope.stream, "seq": envelope.seq, "type": envelope.type, "data": data,
            "actor": envelope.actor, "time": envelope.time, "platform": is_platform(envelope)}
