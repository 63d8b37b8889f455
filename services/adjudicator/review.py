"""Read-only: a game at any past position (`view_at`) and who owes a decision (`owing`).

Review is a replay: the game's envelopes 1..seq folded with its engine, then the engine's `view` for
one viewer. Nothing here writes, takes a game's command lock or touches the command cache, so a review
never slows a command down beyond its share of CPU.

What a review may show. While the game runs, the view at seq for that viewer only: the engine's `view`
of the state folded to seq shows the viewer's own hidden information at that moment and nothing that
was revealed later (a later event is simply not folded). Once the stream ends with the platform's
`GameEnded`, everything: every seat's view at that seq (`views`), as the public log is whole then.
Whether the game is over is read here from the stream, never taken from the caller.

Bounded cost:
- folds run at most `REVIEWS_AT_ONCE` at a time (a queue of reviewers waits; commands do not);
- a game's envelopes and one cursor (a record folded to some seq) stay in a small LRU, so stepping
  forward through a game (the usual review: "next move") folds one command per step; stepping back
  folds again from the start, or from the game's snapshot when it lies between (long games);
- the LRU holds at most `REVIEW_GAMES` games and `REVIEW_ENVELOPES` envelopes in all.
"""
from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from typing import Callable

import structlog

from starbase_core.envelope import Envelope
from starbase_core.gamestream import GameRecord, ends_game, game_stream, replay
from starbase_core.snapshots import Snapshots
from starbase_core.store import EventStore
from starbase_core.transaction import realtime_service
from starbase_rules.contract import Game, RuleViolation

log = structlog.get_logger(__name__)

REVIEWS_AT_ONCE = 2
REVIEW_GAMES = 16
REVIEW_ENVELOPES = 200_000
SNAPSHOT_WORTH = 256            # fold distance past which a snapshot is worth trying


def owing(record: GameRecord) -> list[str]:
    """Who owes a decision in this record: the engine's `to_act`, except when the game is over or in
    a real-time phase (Trucker's building is timed by the service that runs it, as the clock has it)."""
    if record.ended is not None:
        return []
    if realtime_service(record) is not None:
        return []
    return list(record.engine.to_act(record.state))


@dataclass
class _Game:
    envelopes: list[Envelope]
    cursor: GameRecord | None = None

    @property
    def over(self) -> bool:
        return bool(self.envelopes) and ends_game(self.envelopes[-1])


class Reviews:
    def __init__(self, store: EventStore, games: Callable[[str], Game], snapshots: Snapshots | None = None,
                 *, size: int = REVIEW_GAMES, max_envelopes: int = REVIEW_ENVELOPES):
        self.store, self.games, self.snapshots = store, games, snapshots
        self.size, self.max_envelopes = size, max_envelopes
        self._kept: OrderedDict[str, _Game] = OrderedDict()
        self._gate = asyncio.Semaphore(REVIEWS_AT_ONCE)

    async def view_at(self, game_id: str, seq: int, viewer: str | None) -> dict:
        async with self._gate:
            game = await self._game(game_id)
            last = game.envelopes[-1].seq
            if not 1 <= seq <= last:
                raise RuleViolation("UNKNOWN_POSITION", f"game {game_id} has positions 1 to {last}, not {seq}")
            start = await self._start(game_id, game, seq)
            # From here on nothing awaits: two reviews of one game never fold one cursor at once.
            record = start if start is not None else replay(game_id, game.envelopes[:1], self.games)
            record.apply(game.envelopes[record.last_seq:seq])
            game.cursor = record
            return self._answer(game_id, record, viewer, over=game.over, last=last)

    def _answer(self, game_id: str, record: GameRecord, viewer: str | None, *, over: bool, last: int) -> dict:
        engine, state = record.engine, record.state
        answer = {"game_id": game_id, "game": record.game_name, "seq": record.last_seq, "last_seq": last,
                  "players": record.players, "commitment": record.commitment, "ended": record.ended,
                  "game_over": over, "to_act": owing(record), "view": engine.view(state, viewer or None)}
        if over:
            answer["views"] = {player: engine.view(state, player) for player in record.players}
        return answer

    async def _game(self, game_id: str) -> _Game:
        """The game's envelopes, read on from where this replica stopped (nothing more once it ended)."""
        game = self._kept.get(game_id)
        if game is None:
            game = _Game(await self.store.read(game_stream(game_id)))
            if not game.envelopes:
                raise RuleViolation("GAME_NOT_FOUND", f"no game {game_id}")
            self._keep(game_id, game)
        elif not game.over:
            game.envelopes.extend(await self.store.read(game_stream(game_id), game.envelopes[-1].seq + 1))
        self._kept.move_to_end(game_id)
        return game

    async def _start(self, game_id: str, game: _Game, seq: int) -> GameRecord | None:
        """A record at or before `seq` to fold on: the cursor if it is not past `seq`, else the game's
        snapshot if it lies between and is far enough from the start to be worth it; else None."""
        cursor = game.cursor
        if cursor is not None and cursor.last_seq <= seq:
            return cursor
        if self.snapshots is None or seq < SNAPSHOT_WORTH:
            return None
        try:
            record = await self.snapshots.load(game_id, self.store)
        except Exception as error:      # a cache: whatever is wrong with it, fold the stream instead
            log.warning("review_snapshot_unusable", game_id=game_id, error=repr(error))
            return None
        return record if record is not None and record.last_seq <= seq else None

    def _keep(self, game_id: str, game: _Game) -> None:
        self._kept[game_id] = game
        while len(self._kept) > self.size or (
                len(self._kept) > 1 and sum(len(g.envelopes) for g in self._kept.values()) > self.max_envelopes):
            self._kept.popitem(last=False)
