"""Which notifications an append causes: a fold of the game and table streams, with reads to fill gaps.

The unit is an *append* (one JetStream message: a command's envelopes, sealed together). Within it the
state passes through steps nobody acts on, so who owes a decision is read at the append's end
(`starbase_core.decisions`, the clock's rule) and compared with the end of the append before:

- the game's first append (`GameCreated`): **game started** for every player;
- a player who owes a decision now and did not at the end of the previous append: **your turn**, unless
  this game already gave them one less than NOTIFIER_TURN_INTERVAL_SECONDS earlier (by envelope
  time). A player who acts and owes again (an 18xx operating turn) keeps owing: no new notice;
- the platform's `GameEnded`: **game ended**, with each player's place;
- a table's `PlayerInvited`: **invited**.

Only a game's players are notified (never None, the platform). All of this is a pure function of the
stream, so every replica and every restart derives the same notifications with the same ids; each
message is handled by whichever replica receives it, and gaps (messages another replica got, or that
came before a restart) are filled by reading the store, folding silently. A redelivered append the book
has passed is answered from what the book noted for it, or by folding the game again from seq 1.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Callable

import structlog

from starbase_core.decisions import DecisionBook, FollowedGame, game_of, owed_after, parse_time
from starbase_core.envelope import Envelope
from starbase_core.decisionfeed import refold
from starbase_core.gamestream import GameRecord, RefoldNeeded, ends_game
from starbase_rules.contract import Game
from starbase_rules.registry import get_game

from notifier.kinds import GAME_ENDED, GAME_STARTED, INVITED, YOUR_TURN, Notification

log = structlog.get_logger(__name__)
REMEMBERED = 256            # appends per game whose notifications are kept for redeliveries
INVITATION = "PlayerInvited"


@dataclass
class NoticedGame(FollowedGame):
    caused: dict[int, list[Notification]] = field(default_factory=dict)   # by the append's last seq
    last_turn: dict[str, datetime] = field(default_factory=dict)          # last "your turn" per player


class NoticeBook(DecisionBook[NoticedGame]):
    def admit(self, game_id: str, record: GameRecord) -> NoticedGame:
        return NoticedGame(record)

    def _start(self, game_id: str, envelope: Envelope) -> NoticedGame | None:
        game = super()._start(game_id, envelope)
        if game is not None:       # a game created without setup events already owes its first decision
            game.owed = owed_after(game.record, envelope, {})
        return game


def appends(envelopes: list[Envelope]) -> list[list[Envelope]]:
    """Envelopes read from a stream, cut where one append ends (an append shares one command id and
    one sealed time)."""
    cut: list[list[Envelope]] = []
    for envelope in envelopes:
        if cut and (cut[-1][-1].command_id, cut[-1][-1].time) == (envelope.command_id, envelope.time):
            cut[-1].append(envelope)
        else:
            cut.append([envelope])
    return cut


class Causes:
    def __init__(self, store, turn_interval: float = 300.0, games: Callable[[str], Game] = get_game):
        self.store, self.turn_interval, self.games = store, turn_interval, games
        self.book = NoticeBook(games)
        self._table_games: dict[str, str] = {}

    async def of_append(self, append: list[Envelope]) -> list[Notification]:
        stream = append[0].stream
        if game_of(stream) is not None:
            return await self._of_game(append)
        if stream.startswith("table."):
            return await self._of_table(append)
        return []

    # ---- games --------------------------------------------------------------------------------------

    async def _of_game(self, append: list[Envelope]) -> list[Notification]:
        stream, first, last = append[0].stream, append[0].seq, append[-1].seq
        game_id = game_of(stream) or ""
        game = self.book.followed.get(game_id)
        if game is not None and game.record.last_seq >= last:
            known = game.caused.get(last)
            return known if known is not None else await self._refold(stream, last)
        if game is None and first != 1 or game is not None and game.record.last_seq < first - 1:
            start = 1 if game is None else game.record.last_seq + 1
            stored = await self.store.read(stream, start)
            if game is None and stored and ends_game(stored[-1]):
                return await self._refold(stream, last, stored)   # over: fold aside, never follow it again
            for earlier in appends([e for e in stored if e.seq < first]):
                await self._fold(self.book, earlier)
        notes = await self._fold(self.book, append)
        return notes if notes is not None else []

    async def _refold(self, stream: str, last: int, stored: list[Envelope] | None = None) -> list[Notification]:
        """The notifications of the append ending at `last`, folding the game from seq 1 in a book of
        its own (an old redelivery, or a game that is over)."""
        aside = NoticeBook(self.games)
        stored = stored if stored is not None and stored and stored[0].seq == 1 else await self.store.read(stream)
        for append in appends([e for e in stored if e.seq <= last]):
            notes = await self._fold(aside, append)
            if append[-1].seq == last:
                return notes or []
        return []

    async def _fold(self, book: NoticeBook, append: list[Envelope]) -> list[Notification] | None:
        """Fold one append into `book`: its notifications, None when the book does not follow the game."""
        game_id = game_of(append[0].stream) or ""
        before = book.followed.get(game_id)
        owed_before = set(before.owed) if before is not None else set()
        game = None
        try:
            for envelope in append:
                try:
                    game = book.observe(envelope) or game
                except RefoldNeeded:      # an undo takes back what the book folded: the game from the stream
                    await refold(self.store, book, game_id, envelope.seq)
                    game = book.followed.get(game_id) or game
        except Exception as problem:   # an engine that cannot fold its own stream: stop following that game
            log.error("notifier_game_dropped", game_id=game_id, seq=append[-1].seq, problem=repr(problem))
            book.forget(game_id)
            return None
        if game is None:
            return None
        notes = self._notes(game, append, owed_before)
        if game.record.ended is None:
            game.caused[append[-1].seq] = notes
            while len(game.caused) > REMEMBERED:
                del game.caused[next(iter(game.caused))]
        return notes

    def _notes(self, game: NoticedGame, append: list[Envelope], owed_before: set[str]) -> list[Notification]:
        record, last = game.record, append[-1]
        players = set(record.players)
        common = {"stream": last.stream, "time": last.time, "game": record.game_name, "table_id": record.game_id}
        notes = []
        if append[0].seq == 1:
            notes += [Notification(GAME_STARTED, p, **{**common, "seq": 1}, details={"players": record.players})
                      for p in record.players]
        if record.ended is not None:
            standings = list(record.ended.get("standings", []))
            for standing in standings:
                if standing.get("player") in players:
                    notes.append(Notification(GAME_ENDED, standing["player"], seq=last.seq, **common, details={
                        "place": standing.get("rank"), "score": standing.get("score"), "standings": standings,
                        "reason": record.ended.get("reason")}))
            return notes
        moment = parse_time(last.time)
        for player in game.owed:
            if player in owed_before or player not in players:
                continue
            previous = game.last_turn.get(player)
            if previous is not None and (moment - previous).total_seconds() < self.turn_interval:
                continue            # this game told them less than the interval ago
            game.last_turn[player] = moment
            notes.append(Notification(YOUR_TURN, player, seq=last.seq, **common))
        return notes

    # ---- tables -------------------------------------------------------------------------------------

    async def _of_table(self, append: list[Envelope]) -> list[Notification]:
        invitations = [e for e in append if e.type == INVITATION and isinstance(e.data.get("player"), str)]
        if not invitations:
            return []
        table_id = append[0].stream.split(".", 1)[1]
        game = await self._game_of_table(append[0].stream, table_id)
        return [Notification(INVITED, e.data["player"], stream=e.stream, seq=e.seq, time=e.time, game=game,
                             table_id=table_id, details={"by": e.data.get("by")})
                for e in invitations if e.data["player"] != e.data.get("by")]

    async def _game_of_table(self, stream: str, table_id: str) -> str:
        if table_id not in self._table_games:
            if len(self._table_games) > 10_000:
                self._table_games.clear()
            first = (await self.store.read(stream))[:1]
            self._table_games[table_id] = str(first[0].data.get("game", "")) if first else ""
        return self._table_games[table_id]
