"""Feeding a `DecisionBook` from the store: the reads that keep a fold whole when envelopes come out of
order (a follow that lags, another replica's appends). Shared by the clock and the notifier.

The book itself stays pure (`starbase_core.decisions`); these helpers only read the store's port.
"""
from __future__ import annotations

from typing import Callable

from starbase_core.decisions import DecisionBook, game_of
from starbase_core.envelope import Envelope
from starbase_core.gamestream import game_stream
from starbase_core.store import EventStore

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
