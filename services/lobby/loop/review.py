"""Looking back: a past position, the public log (as JSON or text) and the outside audit's export.

- `view_at`: the adjudicator's read-only `ViewAt`, for the caller as the live view would see them (a
  seat-holder sees their own hidden information at that seq, anyone else a spectator's); every seat's
  view once the game is over. Rate-limited (`reviews`): each one is a fold.
- `log`: the public log, redacted as a spectator sees it while the game runs; whole (every event's
  data as stored) once the game is over, as the platform promises (`starbase_core.gamestream.redact`).
  `text` renders it with `starbase_core.gamelog.text_line`, the lines `starbase log` prints.
- `export`: once the game is over, the whole stream with hashes and meta (and the revealed seed in
  `GameEnded`), the lines `starbase export` writes, so anyone can run `starbase audit --file` without
  access to the servers. Refused while the game runs (GAME_NOT_OVER: the seed is secret until the end);
  a private game's only to its members. Rate-limited (`exports`).
"""
from __future__ import annotations

from starbase_core.envelope import Envelope
from starbase_core.gamelog import text_line
from starbase_core.gamestream import ends_game, game_stream, is_platform

from lobby.exceptions import Conflict, NotFound
from lobby.games import GameService
from lobby.redaction import wire_event
from lobby.service import load_engine
from lobby.tokens import Identity


def whole_event(envelope: Envelope) -> dict:
    """An event as stored, without hashes and meta (the export has those)."""
    return {"stream": envelope.stream, "seq": envelope.seq, "type": envelope.type, "data": envelope.data,
            "actor": envelope.actor, "time": envelope.time, "platform": is_platform(envelope)}


def as_text(events: list[dict]) -> str:
    return "".join(text_line(e["seq"], e["time"], e["actor"], e["type"], e["data"]) + "\n" for e in events)


class Review:
    def __init__(self, games: GameService, store, adjudicator, limits):
        self.games, self.store, self.adjudicator, self.limits = games, store, adjudicator, limits

    async def view_at(self, who: Identity | None, game_id: str, seq: int, invite: str | None,
                      address: str) -> dict:
        table = await self.games.table_of(game_id)
        viewer = self.games.viewer_at(table, who, invite)
        await self.limits.hit("reviews", who.player_id if who else f"address:{address}", address)
        return await self.games._ask(table, lambda: self.adjudicator.view_at(game_id, seq, viewer))

    async def log(self, who: Identity | None, game_id: str, after: int, limit: int,
                  invite: str | None = None) -> tuple[list[dict], int]:
        table = await self.games.table_of(game_id)
        self.games.viewer_at(table, who, invite)
        stream = game_stream(game_id)
        envelopes = (await self.store.read(stream, after + 1))[:limit]
        last = envelopes[-1].seq if envelopes else after
        if await self._over(stream, envelopes):
            return [whole_event(e) for e in envelopes], last
        engine = load_engine(table.game)
        return [wire_event(engine, e, None) for e in envelopes], last

    async def export(self, who: Identity | None, game_id: str, address: str) -> list[Envelope]:
        table = await self.games.table_of(game_id)
        if table.private and not table.may_see(who.player_id if who else None):
            raise NotFound(f"no game {game_id!r}", "GAME_NOT_FOUND")      # members only, not disclosed
        await self.limits.hit("exports", who.player_id if who else f"address:{address}", address)
        envelopes = await self.store.read(game_stream(game_id))
        if not envelopes or not ends_game(envelopes[-1]):
            raise Conflict("a game is exported once it is over: its seed stays secret until its last event",
                           "GAME_NOT_OVER")
        return envelopes

    async def _over(self, stream: str, page: list[Envelope]) -> bool:
        if page and ends_game(page[-1]):
            return True
        last = await self.store.last_seq(stream)
        tail = await self.store.read(stream, last) if last else []
        return bool(tail) and ends_game(tail[-1])
