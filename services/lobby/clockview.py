"""The clock of a game, for its view: each seat's bank left, who owes a decision since when, and its due_at.

Everyone who may see a game sees its clock (it hides nothing: the times of the envelopes are public in
the log). It is the fold the decision clock itself runs (`starbase_core.decisions`, with the table's
time controls), so the `due_at` shown is the one the clock enforces (up to its tick). Timed games are
folded incrementally from the store as views are asked for, at most MAX_GAMES at once (the least
recently viewed is dropped, and folded again from seq 1 if asked for again); untimed and finished games
are remembered as such (bounded too) so their streams are not read again.

Tables with no time controls run on the clock service's CLOCK_DEFAULT_SECONDS: the lobby reads the same
setting (the same variable, set for both), so they show that clock too.

The live feed hands every game envelope to `seen`: a followed game is folded on at once, with no read,
so listings and pushes ask the store only for a game not followed yet (or one the feed saw further than
the fold, e.g. after an envelope came out of order). A clock is a pure function of the stream, so any
replica shows the same one, paused or not (`starbase_core.pause`).
"""
from __future__ import annotations

from datetime import datetime, timezone

import structlog

from starbase_core.decisionfeed import refold
from starbase_core.decisions import FollowedGame, TimedBook, game_of
from starbase_core.envelope import Envelope
from starbase_core.gamestream import GameRecord, RefoldNeeded, game_stream
from starbase_core.timecontrol import TimeControl

log = structlog.get_logger(__name__)
MAX_GAMES = 2000
MAX_UNTIMED = 20000
MAX_LATEST = 20000


class TimedOnly(TimedBook):
    def __init__(self) -> None:
        super().__init__()
        self.untimed: dict[str, None] = {}      # games with no clock, or over: an ordered, bounded set

    def admit(self, game_id: str, record: GameRecord) -> FollowedGame | None:
        game = super().admit(game_id, record)
        if game is None:
            self.remember_untimed(game_id)
        return game

    def remember_untimed(self, game_id: str) -> None:
        self.untimed[game_id] = None
        while len(self.untimed) > MAX_UNTIMED:
            del self.untimed[next(iter(self.untimed))]


class ClockViews:
    def __init__(self, store, max_games: int = MAX_GAMES, default_seconds: float = 0.0):
        self.store, self.max_games = store, max_games
        self.book = TimedOnly()
        self.book.default_seconds = default_seconds
        self.latest: dict[str, int] = {}        # the last seq the feed saw of each game (bounded)

    def use_default(self, seconds: float) -> None:
        """The clock service's CLOCK_DEFAULT_SECONDS (tables without time controls run on it)."""
        self.book.default_seconds = seconds

    def timed(self, options: dict) -> bool:
        return TimeControl.of(options, self.book.default_seconds) is not None

    def seen(self, envelope: Envelope) -> bool:
        """The feed saw a game envelope: fold it into a followed game (no read); True when it did."""
        game_id = game_of(envelope.stream)
        if game_id is None:
            return False
        self.latest[game_id] = max(envelope.seq, self.latest.pop(game_id, 0))     # the newest goes last
        while len(self.latest) > MAX_LATEST:
            del self.latest[next(iter(self.latest))]
        if self.book.expects(game_id) != envelope.seq:
            return False
        try:
            self._fold(game_id, [envelope])
        except RefoldNeeded:            # an undo of what was folded: the next ask reads and refolds it
            return False
        except Exception as problem:
            log.info("lobby_clock_dropped", game_id=game_id, problem=repr(problem))
            self.book.forget(game_id)
            return False
        return True

    def cached(self, game_id: str, now: datetime | None = None) -> dict | None:
        """The clock of a followed game that is up to date with the feed, with no read; else None."""
        game = self.book.followed.get(game_id)
        if game is None or game.record.last_seq < self.latest.get(game_id, 0):
            return None
        return game.clock_state(now or datetime.now(timezone.utc))

    async def state(self, game_id: str, now: datetime | None = None, options: dict | None = None,
                    fresh: bool = True) -> dict | None:
        """The clock of a game as of now; None when the game is untimed or over (or unreadable now).
        `options` (the table's, when known) spares reading an untimed game at all; `fresh` False (lists)
        trusts the feed to have folded a followed game up to date, and reads nothing then."""
        if game_id in self.book.untimed or (options is not None and not self.timed(options)):
            return None
        wanted = self.book.expects(game_id)
        if fresh or wanted is None or wanted <= self.latest.get(game_id, 0):
            try:
                await self._read(game_id, wanted or 1)
            except Exception as problem:     # the view goes out without its clock rather than not at all
                log.warning("lobby_clock_view_failed", game_id=game_id, problem=repr(problem))
                self.book.forget(game_id)
                return None
        game = self.book.followed.pop(game_id, None)
        if game is None:
            return None
        self.book.followed[game_id] = game          # the most recently viewed goes last
        while len(self.book.followed) > self.max_games:
            self.book.forget(next(iter(self.book.followed)))
        return game.clock_state(now or datetime.now(timezone.utc))

    async def _read(self, game_id: str, wanted: int) -> None:
        for envelope in await self.store.read(game_stream(game_id), wanted):
            try:
                self._fold(game_id, [envelope])
            except RefoldNeeded:        # an undo reaches back: rebuild the state from the stream up to it
                await refold(self.store, self.book, game_id, envelope.seq)

    def _fold(self, game_id: str, envelopes: list[Envelope]) -> None:
        for envelope in envelopes:
            if self.book.observe(envelope) is not None and self.book.expects(game_id) is None:
                self.book.remember_untimed(game_id)     # it just ended
