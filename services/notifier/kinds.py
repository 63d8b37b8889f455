"""What a notification is: its kind, who gets it, what caused it, and the id derived from that cause.

The id is a digest of (stream, seq, player, kind): every replica, and every restart, that sees the same
cause derives the same id. It is what the claim is keyed by (one send) and what receivers dedupe on
(`Starbase-Notification-Id`).

"Clock running low" (`CLOCK_LOW`) is caused by time passing, not by an append: `clocklow.py`.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

YOUR_TURN = "your_turn"
GAME_STARTED = "game_started"
GAME_ENDED = "game_ended"
INVITED = "invited"
CLOCK_LOW = "clock_low"        # a timed decision is nearly due (clocklow.py): once per decision
TEST = "test"                  # POST /players/me/notifications/test: never claimed, never retried

KINDS = (YOUR_TURN, GAME_STARTED, GAME_ENDED, INVITED, CLOCK_LOW)
DEFAULT_KINDS = (YOUR_TURN, GAME_STARTED, GAME_ENDED, INVITED, CLOCK_LOW)

TITLES = {
    YOUR_TURN: "Your turn in {game} ({game_id})",
    GAME_STARTED: "Your game of {game} has started ({game_id})",
    GAME_ENDED: "Your game of {game} is over: you placed {place} ({game_id})",
    INVITED: "You are invited to a table of {game} ({table_id})",
    CLOCK_LOW: "Your time is running low in {game} ({game_id})",
    TEST: "A test notification from Starbase",
}


def notification_id(stream: str, seq: int, player: str, kind: str) -> str:
    cause = "\x1f".join((stream, str(seq), player, kind))
    return hashlib.sha256(cause.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class Notification:
    kind: str
    player: str
    stream: str                 # the stream and seq of the envelope that caused it
    seq: int
    time: str                   # that envelope's server time
    game: str = ""              # the game's name (moon21, …)
    table_id: str = ""          # the table (its game has the same id)
    details: dict = field(default_factory=dict)   # place and standings, the inviter, …

    @property
    def id(self) -> str:
        return notification_id(self.stream, self.seq, self.player, self.kind)

    def body(self, public_url: str, notification_id: str | None = None) -> dict:
        """The JSON a webhook receives (and the facts an e-mail says)."""
        link = f"{public_url.rstrip('/')}/tables/{self.table_id}" if self.table_id else public_url
        return {"id": notification_id or self.id, "kind": self.kind, "player": self.player,
                "game": self.game, "table_id": self.table_id,
                "game_id": self.table_id if self.stream.startswith("game.") else None,
                "stream": self.stream, "seq": self.seq, "time": self.time, "url": link, **self.details}

    def title(self) -> str:
        facts = {"game": self.game or "a game", "game_id": self.table_id, "table_id": self.table_id,
                 "place": _ordinal(self.details.get("place"))}
        return TITLES.get(self.kind, "A notification from Starbase").format(**facts)


def _ordinal(place) -> str:
    if not isinstance(place, int):
        return "?"
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"
