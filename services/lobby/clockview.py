"""The clock of a game, for its view: each seat's bank left, who owes a decision since when, and its due_at.

Everyone who may see a game sees its clock (it hides nothing: the times of the envelopes are public in
the log). It is the fold the decision clock itself runs (`starbase_core.decisions`, with the table's
time controls), so the `due_at` shown is the one the clock enforces (up to its tick). Timed games are
folded incrementally from the store as views are asked for, at most MAX_GAMES at once (the least
recently viewed is dropped, and folded again from seq 1 if asked for again); untimed and finished games
are remembered as such (bounded too) so their streams are not read again.

The clock service's CLOCK_DEFAULT_SECONDS (for tables that set no time controls) is not known here:
such tables show no clock.
"""
from __future__ import annotations

from datetime import datetime, timezone

import structlog

from starbase_core.decisions import FollowedGame, TimedBook
from starbase_core.gamestream import GameRecord, game_stream

log = structlog.get_logger(__name__)
MAX_GAMES = 2000
MAX_UNTIMED = 20000


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
    def __init__(self, store, max_games: int = MAX_GAMES):
        self.store, self.max_games = store, max_games
        self.book = TimedOnly()

    async def state(self, game_id: str, now: datetime | None = None) -> dict | None:
        """The clock of a game as of now; None when the game is untimed or over (or unreadable now)."""
        if game_id in self.book.untimed:
            return None
        try:
            wanted = self.book.expects(game_id) or 1
            for envelope in await self.store.read(game_stream(game_id), wanted):
                if self.book.observe(envelope) is not None and self.book.expects(game_id) is None:
                    self.book.remember_untimed(game_id)     # it just ended
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
