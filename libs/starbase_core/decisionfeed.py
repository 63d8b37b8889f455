"""Feeding a `DecisionBook` from the store: the reads that keep a fold whole when envelopes come out of
order (a follow that lags, another replica's appends). Shared by the clock and the notifier.

The book itself stays pure (`starbase_core.decisions`); these helpers only read the store's port.
"""
from __future__ import annotations

from typing import Callable

import structlog

from starbase_core.decisions import DecisionBook, game_of
from starbase_core.envelope import Envelope
from starbase_core.gamestream import RefoldNeeded, game_stream
from starbase_core.store import EventStore

log = structlog.get_logger(__name__)

Observe = Callable[[Envelope], object]


async def fold_in_order(store: EventStore, book: DecisionBook, envelope: Envelope,
                        observe: Observe | None = None) -> None:
    """Fold `envelope`; when it overtook envelopes the book has not seen yet, read and fold those first."""
    observe = observe or book.observe
    game_id = game_of(envelope.stream)
    wanted = book.expects(game_id) if game_id else None
    if wanted is not None and envelope.seq > wanted:
        for missing in await store.read(envelope.stream, from_seq=wanted):
            if missing.seq < envelope.seq:
                observe(missing)
    observe(envelope)


async def refold(store: EventStore, book: DecisionBook, game_id: str, undo_seq: int) -> None:
    """Fold a followed game again from seq 1 up to the undo at `undo_seq` (`DecisionBook.refold`)."""
    envelopes = [e for e in await store.read(game_stream(game_id), from_seq=1) if e.seq <= undo_seq]
    book.refold(game_id, envelopes)


async def catch_up(store: EventStore, book: DecisionBook, game_id: str, observe: Observe | None = None) -> None:
    """Fold what the store holds of a followed game beyond what the book has seen."""
    observe = observe or book.observe
    wanted = book.expects(game_id)
    if wanted is not None:
        for envelope in await store.read(game_stream(game_id), from_seq=wanted):
            observe(envelope)


class BookFeed:
    """A `DecisionBook` kept folded from the store, as the clock and the notifier's low-clock watch
    need it: envelopes folded in order; an undo that takes back what the book already folded is folded
    again from the stream once the current read is done (`DecisionBook.refold`); and a game whose engine
    cannot fold its own stream is dropped and logged, so that one broken game never stops the others."""

    def __init__(self, store: EventStore, book: DecisionBook, dropped: str, counted: Callable[[], object] | None = None):
        self.store, self.book = store, book
        self.dropped = dropped                  # the log event of a dropped game (which service's)
        self.counted = counted                  # called once per envelope looked at (a metric)
        self._refold: dict[str, int] = {}       # game → the seq of an undo reaching back

    def observe(self, envelope: Envelope) -> None:
        game_id = game_of(envelope.stream)
        if self.counted is not None:
            self.counted()
        if game_id in self._refold:
            return                              # folded from the stream once this read is done
        try:
            self.book.observe(envelope)
        except RefoldNeeded:
            if game_id:
                self._refold[game_id] = envelope.seq
        except Exception as problem:   # an engine that cannot fold its own stream: stop following that game
            log.error(self.dropped, game_id=game_id, seq=envelope.seq, problem=repr(problem))
            if game_id:
                self.book.forget(game_id)

    async def fold(self, envelope: Envelope) -> None:
        await fold_in_order(self.store, self.book, envelope, self.observe)   # gaps are read first
        await self._refold_games()

    async def catch_up(self, game_id: str) -> None:
        """Fold what the store holds beyond what the book saw (a follow may lag behind it)."""
        await catch_up(self.store, self.book, game_id, self.observe)
        await self._refold_games()

    async def _refold_games(self) -> None:
        while self._refold:
            game_id, undo_seq = self._refold.popitem()
            await refold(self.store, self.book, game_id, undo_seq)
            log.info("game_refolded", game_id=game_id, seq=undo_seq)
            await catch_up(self.store, self.book, game_id, self.observe)
