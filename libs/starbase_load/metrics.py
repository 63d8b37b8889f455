"""What the scenario measures, as rows of Locust's own statistics (`events.request`), so the web UI
charts them and the CSV and HTML reports carry them. One row per (type, name):

| type | name | one sample is | a failure is |
|---|---|---|---|
| `COMMAND` | the game (`moon21`, …) | a command's round trip, first send → 200 reply (retries included) | no answer after every attempt (`unanswered`) |
| `REFUSED` | the refusal's code | a command or move refused by a rule (4xx / `error`): nothing stored | — |
| `PUSH` | `command -> own socket` | the sender's socket: first send → each of the command's events | — |
| `PUSH` | `event -> player socket`, `event -> spectator socket` | every live event on every socket: the event's server time → its arrival | — |
| `TRUCKER` | `grab -> ack`, `<move> -> ack` | a move on Trucker's socket: sent → acknowledged (durable) | no ack after every resend |
| `GAME` | `started <game>` | a game started: from looking for a table to the start | — |
| `GAME` | `finished <game>` | a game played out: its length | given up (no event for `--starbase-abandon` s) |
| `SOCKET` | the socket's kind | — | a drop, a refusal, a seq gap or duplicate, a silent socket |
| `CHECK` | what the checker counted | — | anything lost, duplicated, refused-but-applied, an audit or chain failure |

HTTP calls are Locust's own rows (`POST /tables`, `GET /games/[id]/actions`, …), with the ids in paths
folded into `[id]` so a table's calls add up.

`event -> … socket` compares the server's clock with this machine's: exact on one machine, as good as
the clocks' synchronisation (NTP: a few ms) across machines. Only live events count (the event's time
after the socket connected), never the history a socket replays when it opens.
"""
from __future__ import annotations

from typing import Any

COMMAND, REFUSED, PUSH, TRUCKER, GAME, SOCKET, CHECK = "COMMAND", "REFUSED", "PUSH", "TRUCKER", "GAME", "SOCKET", "CHECK"
OWN_SOCKET, PLAYER_SOCKET, SPECTATOR_SOCKET = "command -> own socket", "event -> player socket", "event -> spectator socket"


class LoadProblem(Exception):
    """A failure row's error: what went wrong, in words (Locust groups failures by it)."""


class Metrics:
    def __init__(self, environment: Any):
        self._fire = environment.events.request.fire

    def sample(self, kind: str, name: str, ms: float, problem: str | None = None) -> None:
        self._fire(request_type=kind, name=name, response_time=max(0.0, ms), response_length=0,
                   exception=LoadProblem(problem) if problem else None, context={})

    def command(self, game: str, ms: float) -> None:
        self.sample(COMMAND, game, ms)

    def unanswered(self, game: str, ms: float, why: str) -> None:
        self.sample(COMMAND, game, ms, f"unanswered: {why}")

    def refused(self, code: str, ms: float) -> None:
        self.sample(REFUSED, code, ms)

    def push(self, name: str, ms: float) -> None:
        self.sample(PUSH, name, ms)

    def move(self, command_type: str, ms: float, problem: str | None = None) -> None:
        name = "grab -> ack" if command_type in ("GrabFaceDown", "GrabFaceUp", "TakeReserved") else f"{command_type} -> ack"
        self.sample(TRUCKER, name, ms, problem)

    def game_started(self, game: str, waited_ms: float) -> None:
        self.sample(GAME, f"started {game}", waited_ms)

    def game_finished(self, game: str, length_ms: float) -> None:
        self.sample(GAME, f"finished {game}", length_ms)

    def game_abandoned(self, game: str, length_ms: float, why: str) -> None:
        self.sample(GAME, f"finished {game}", length_ms, f"given up: {why}")

    def socket_problem(self, socket_kind: str, what: str) -> None:
        self.sample(SOCKET, socket_kind, 0.0, what)

    def problem(self, where: str, what: str) -> None:
        """Anything else that should not happen (a setup step failing, a stalled table)."""
        self.sample("ERROR", where, 0.0, what)
