"""Who owes a decision in which game, and since when: a fold of the game streams, with no I/O.

Shared by the decision clock (a default move when a player's time runs out) and the notifier ("your
turn"): both feed it every envelope of `game.>` in order (`DecisionBook.observe`) and read `owed`.

A player owes a decision from the envelope after which the engine first lists them in `to_act` (its seq
and server time) until they are no longer listed, or until they act themselves (an envelope of theirs
that changed the game starts a new decision; a `CommandHadNoEffect` does not, so stalling with no-op
commands keeps the old one). Every reader folding the same stream gets the same decisions.

A real-time phase (an engine's `realtime_service` is not None: Trucker's building) is timed by the
service that runs it, so nobody owes a decision then.

The table's time controls (`starbase_core.timecontrol`) ride along: each seat's Fischer bank is
charged when one of its decisions ends (the time between the two envelopes' server times) and the
increment added, so `due_at` of an owed decision is the same for every reader.

A paused clock (`starbase_core.pause`: `ClockPaused` … `ClockResumed`) counts nothing: a decision owed
across a pause is charged only the time outside it, and nothing is due while it lasts. Asking for,
agreeing to or refusing a pause is not acting: it starts no new decision.

Only the platform's `GameCreated` at seq 1 starts a game, so a reader that never saw a game's start
leaves it alone (or replays it from seq 1 itself); a game is dropped once its `GameEnded` is folded.
Subclasses choose which games to follow and what else they keep per game (`admit`, `folded`).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Callable, Generic, TypeVar

import structlog

from starbase_core.envelope import Envelope
from starbase_core.gamestream import GAME_CREATED, NO_EFFECT, GameRecord, is_platform, replay
from starbase_core.pause import CLOCK_PAUSED, CLOCK_RESUMED, PAUSE_TYPES
from starbase_core.timecontrol import TimeControl
from starbase_core.transaction import realtime_service
from starbase_rules.contract import Game
from starbase_rules.registry import get_game

log = structlog.get_logger(__name__)


@dataclass(frozen=True)
class Owed:
    player: str
    since_seq: int
    since: datetime


@dataclass
class FollowedGame:
    """A game folded from its stream, with who owes a decision in it now."""

    record: GameRecord
    owed: dict[str, Owed] = field(default_factory=dict)
    control: TimeControl | None = None                      # None: the game's decisions are not timed
    banks: dict[str, float] = field(default_factory=dict)   # each seat's bank, as of its last decision's end
    paused_at: datetime | None = None                       # the server time the clock was paused at

    def due_at(self, owed: Owed) -> datetime | None:
        """When the owed decision runs out of time (None: untimed, or the clock is paused)."""
        if self.control is None or self.paused_at is not None:
            return None
        return self.control.due_at(owed.since, self.banks.get(owed.player))

    def counted(self, moment: datetime) -> datetime:
        """The last moment the clock counted up to `moment`: the pause's start while it is paused."""
        return moment if self.paused_at is None else min(moment, self.paused_at)

    def pause_changed(self, envelope: Envelope) -> None:
        """Stop counting at `ClockPaused`; at `ClockResumed`, move every decision owed across the pause
        on by the time it was paused (one owed since during the pause counts from the resumption)."""
        moment = parse_time(envelope.time)
        if envelope.type == CLOCK_PAUSED and self.paused_at is None:
            self.paused_at = moment
        elif envelope.type == CLOCK_RESUMED and self.paused_at is not None:
            start, self.paused_at = self.paused_at, None
            self.owed = {player: replace(owed, since=owed.since + (moment - max(start, owed.since)))
                         if owed.since < moment else owed for player, owed in self.owed.items()}

    def charge(self, before: dict[str, Owed], moment: datetime) -> None:
        """Charge the banks of the decisions that ended at `moment` (owed before, not the same one now)."""
        if self.control is None or self.control.bank is None:
            return
        moment = self.counted(moment)
        for player, owed in before.items():
            if self.owed.get(player) != owed and player in self.banks:
                took = (moment - owed.since).total_seconds()
                self.banks[player] = self.control.after_decision(self.banks[player], took) or 0.0

    def clock_state(self, now: datetime) -> dict:
        """Each seat's bank left now and the due time of what it owes: what a table shows everyone."""
        if self.control is None:
            return {"control": None, "seq": self.record.last_seq, "seats": {}}
        seats = {}
        counted = self.counted(now)
        for player in self.record.players:
            owed = self.owed.get(player)
            bank = self.banks.get(player)
            due = self.due_at(owed) if owed is not None else None
            if bank is not None and owed is not None:
                bank = max(0.0, bank - max(0.0, (counted - owed.since).total_seconds()))
            seats[player] = {"bank_seconds": None if bank is None else round(bank, 3),
                             "owes_since": owed.since.isoformat() if owed else None,
                             "due_at": due.isoformat() if due else None}
        return {"control": self.control.public(), "seq": self.record.last_seq, "seats": seats,
                **self.record.pause.public(),
                "paused_at": self.paused_at.isoformat() if self.paused_at is not None else None}


def parse_time(text: str) -> datetime:
    """An envelope's ISO 8601 UTC time ("…Z") as an aware datetime."""
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def game_of(stream: str) -> str | None:
    """The game id of a `game.<id>` stream; None for any other stream."""
    kind, _, game_id = stream.partition(".")
    return game_id if kind == "game" and game_id else None


def owed_after(record: GameRecord, envelope: Envelope, before: dict[str, Owed]) -> dict[str, Owed]:
    """Who owes a decision once `envelope` (already folded into `record`) is in, and since when."""
    engine, state = record.engine, record.state
    if realtime_service(record) is not None:
        return {}
    acted = envelope.actor if envelope.type != NO_EFFECT and envelope.type not in PAUSE_TYPES else None
    moment = parse_time(envelope.time)
    after = {}
    for player in engine.to_act(state):
        held = before.get(player)
        if held is None or player == acted:
            held = Owed(player, envelope.seq, moment)
        after[player] = held
    return after


G = TypeVar("G", bound=FollowedGame)


class DecisionBook(Generic[G]):
    """The unfinished games a reader follows, each with its owed decisions."""

    def __init__(self, games: Callable[[str], Game] = get_game, default_seconds: float = 0.0):
        self.games = games
        self.default_seconds = default_seconds      # the clock's limit for tables that set none
        self.followed: dict[str, G] = {}

    def observe(self, envelope: Envelope) -> G | None:
        """Fold one envelope; the game it changed (also when it just ended, and is no longer followed),
        else None. Envelopes already folded are ignored, so overlapping reads are harmless."""
        game_id = game_of(envelope.stream)
        if game_id is None:
            return None
        game = self.followed.get(game_id)
        if game is None:
            if envelope.seq == 1 and envelope.type == GAME_CREATED and is_platform(envelope):
                return self._start(game_id, envelope)
            return None   # a game that ended, or one whose start this book never saw
        if envelope.seq <= game.record.last_seq:
            return None
        game.record.apply([envelope])       # RefoldNeeded: an undo reaches back (see `refold`)
        return self._folded(game_id, game, envelope)

    def refold(self, game_id: str, envelopes: list[Envelope]) -> G | None:
        """Fold a followed game's stream from seq 1 up to an undo that `observe` refused (`RefoldNeeded`:
        its record had folded what the undo takes back). The engine state is rebuilt from the stream;
        the decisions and banks folded so far stand (the time was spent), and the undo's envelope is
        then folded like any other (it is its actor's move)."""
        game = self.followed.get(game_id)
        if game is None or not envelopes or envelopes[-1].seq != game.record.last_seq + 1:
            return None
        game.record = replay(game_id, envelopes, self.games)
        return self._folded(game_id, game, envelopes[-1])

    def _folded(self, game_id: str, game: G, envelope: Envelope) -> G:
        if game.record.ended is not None:
            del self.followed[game_id]
            return game
        before, game.owed = game.owed, owed_after(game.record, envelope, game.owed)
        game.charge(before, parse_time(envelope.time))
        if envelope.type in (CLOCK_PAUSED, CLOCK_RESUMED) and is_platform(envelope):
            game.pause_changed(envelope)
        self.folded(game)
        return game

    def expects(self, game_id: str) -> int | None:
        """The next seq this book needs for a game it follows (None: not followed)."""
        game = self.followed.get(game_id)
        return None if game is None else game.record.last_seq + 1

    def forget(self, game_id: str) -> None:
        self.followed.pop(game_id, None)

    def owed_count(self) -> int:
        return sum(len(game.owed) for game in self.followed.values())

    # ---- what a subclass decides ------------------------------------------------------------------

    def admit(self, game_id: str, record: GameRecord) -> G | None:
        """The per-game entry to follow this game with, or None to leave it alone."""
        return FollowedGame(record)  # type: ignore[return-value]

    def folded(self, game: G) -> None:
        """Called after each envelope that leaves the game unfinished (owed is already updated)."""

    def _start(self, game_id: str, envelope: Envelope) -> G | None:
        try:
            record = replay(game_id, [envelope], self.games)
        except Exception as problem:   # an engine this build does not know: nothing to follow
            log.warning("decisions_game_skipped", game_id=game_id, problem=str(problem))
            return None
        game = self.admit(game_id, record)
        if game is not None:
            game.control = TimeControl.of(record.options, self.default_seconds)
            if game.control is not None and game.control.bank is not None:
                game.banks = {player: game.control.bank for player in record.players}
            self.followed[game_id] = game
        return game


class TimedBook(DecisionBook[FollowedGame]):
    """Follows only the games with time controls (the lobby's clock views, the notifier's low clocks)."""

    def admit(self, game_id: str, record: GameRecord) -> FollowedGame | None:
        return FollowedGame(record) if TimeControl.of(record.options, self.default_seconds) is not None else None
