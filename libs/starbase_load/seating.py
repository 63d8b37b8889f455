"""Finding a seat and getting the game started, as independent people do in a public lobby.

Quick play first, where the lobby has it (`POST /quickplay {"game", "seats", "options"}`, answered
with the table): the lobby matches players itself. A lobby without the route (404 `NOT_FOUND`, 405)
is remembered per process, and players then look for a table themselves: the open tables of the game
with the same seat count and options, fullest first (`GET /tables?game=&status=open&free_seats=1`); a
join that loses a race (409: full, started) tries the next; none left: open one (`POST /tables`).

Seated, a player says it is ready and watches the table (`GET /tables/{id}`, once a second) until it
plays: the host starts it once every seat is taken and everyone is ready (anyone else does after a few
seconds more, in case the host is gone). Players who opened tables at the same moment would each wait
alone at their own: a player alone at its table looks at the list every few seconds and, if a table
that fits was opened before its own (a smaller id: one order all agree on), leaves for it. Nobody
waits longer than `SEAT_WAIT` seconds for a table to fill.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass

from starbase_load.lobby import Lobby

SEAT_WAIT = 90.0
LOOK_AROUND = 2.0          # seconds between looks at the list while alone at a table
START_GRACE = 5.0          # seconds the host has to start a full, ready table before anyone else does


@dataclass
class QuickPlay:
    """Does this lobby have quick play? None: not asked yet."""
    available: bool | None = None
    lean: bool = False          # it refused our extra fields: send the game only


def take_seat(lobby: Lobby, game: str, seats: int, options: dict, rnd: random.Random, quickplay: QuickPlay,
              avoid: str = "") -> str | None:
    """A table where this player now sits (its id), or None (nothing worked; the reason is recorded)."""
    if quickplay.available is not False:
        table = _quick_play(lobby, game, seats, options, quickplay)
        if table is not None:
            return table
    candidates = [t for t in open_tables(lobby, game, seats, options) if t["table_id"] != avoid]
    rnd.shuffle(candidates)
    candidates.sort(key=lambda t: t["free_seats"])          # fullest first: tables fill, games start
    for table in candidates:
        joined = lobby.call("POST", f"/tables/{table['table_id']}/join", {}, name="/tables/[id]/join",
                            fine=(409,))
        if joined.ok:
            return table["table_id"]
    created = lobby.call("POST", "/tables", {"game": game, "seats": seats, "options": options})
    return created.body["table_id"] if created.ok else None


def open_tables(lobby: Lobby, game: str, seats: int, options: dict) -> list[dict]:
    """Open tables of the game, with a free seat, this many seats and these options, where I do not sit."""
    page = lobby.call("GET", "/tables", name="/tables?status=open",
                      params={"game": game, "status": "open", "free_seats": 1, "limit": 50})
    if not page.ok:
        return []
    return [t for t in page.body.get("items", []) if _fits(t, seats, options, lobby.player_id)]


def _quick_play(lobby: Lobby, game: str, seats: int, options: dict, quickplay: QuickPlay) -> str | None:
    body = {"game": game} if quickplay.lean else {"game": game, "seats": seats, "options": options}
    answer = lobby.call("POST", "/quickplay", body, fine=(404, 405, 422) if quickplay.available is None else ())
    if answer.status in (404, 405) and answer.code in ("NOT_FOUND", "METHOD_NOT_ALLOWED", "?"):
        quickplay.available = False
        return None
    if answer.status == 422 and answer.code == "VALIDATION_FAILED" and not quickplay.lean:
        quickplay.lean = True
        return _quick_play(lobby, game, seats, options, quickplay)
    if not answer.ok:
        return None
    quickplay.available = True
    table = answer.body.get("table", answer.body) if isinstance(answer.body, dict) else {}
    return table.get("table_id") or table.get("id")


def _fits(table: dict, seats: int, options: dict, me: str) -> bool:
    return (len(table["seats"]) == seats and all(table["options"].get(k) == v for k, v in options.items())
            and all(seat["player_id"] != me for seat in table["seats"]))


def until_started(lobby: Lobby, table_id: str, poll: float) -> dict | None:
    """The table once it plays, or None when this player left it (alone while an earlier table waits,
    or not started in time)."""
    lobby.call("POST", f"/tables/{table_id}/ready", {"ready": True}, name="/tables/[id]/ready", fine=(409,))
    began = last_look = time.monotonic()
    full_since: float | None = None
    while time.monotonic() - began < SEAT_WAIT:
        table = lobby.table(table_id)
        if table is None:
            return None
        if table["status"] == "playing":
            return table
        if table["status"] != "open":
            return None
        seated = [s for s in table["seats"] if s["player_id"]]
        if len(seated) == 1 and time.monotonic() - last_look > LOOK_AROUND:
            last_look = time.monotonic()
            if any(t["table_id"] < table_id for t in open_tables(lobby, table["game"], len(table["seats"]),
                                                                   table["options"])):
                break                                # company at an earlier table: go there
        if table["free_seats"] == 0 and all(s["ready"] for s in seated):
            full_since = full_since or time.monotonic()
            if table["host"] == lobby.player_id or time.monotonic() - full_since > START_GRACE:
                started = lobby.call("POST", f"/tables/{table_id}/start", name="/tables/[id]/start", fine=(409,))
                if started.ok:
                    return started.body
        time.sleep(poll)
    lobby.call("POST", f"/tables/{table_id}/leave", name="/tables/[id]/leave", fine=(409,))
    return None
