"""One simulated person's calls to the lobby's HTTP API, on Locust's HTTP client (so every call is a
row of Locust's statistics, ids in paths folded into `[id]`).

- `sign_in`: a guest (`POST /players/guest`), or an account: register (`POST /players`) and then log
  in (`POST /sessions`), as a person does; an expired access token is refreshed once
  (`POST /sessions/refresh`) and the call made again.
- `call`: any call, with the answers that are part of normal play (a table that filled up meanwhile:
  409) counted as successes, anything else 4xx/5xx as a failure.
- `command`: on the player's game socket as a move (as the web client sends it), or with
  `POST /games/{id}/commands` when no socket is given or it is not open, with a command id of ours; a
  transport error, a lost socket or a 5xx is sent again under the same id (the lobby applies it once),
  three attempts in all. The final answer goes to
  the journal (acknowledged with its seqs, refused with its code, unanswered) and to the statistics.
"""
from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from starbase_load.journal import ACKNOWLEDGED, BOARD, REFUSED, UNANSWERED, JournalFile
from starbase_load.metrics import Metrics

ATTEMPTS = 3
MOVE_TIMEOUT = 30.0     # a move on the socket with no answer by then goes again by POST, same id
LIMITED = ("the lobby's limits refused it (429): run the lobby with LOBBY_LIMITS_EXEMPT=<the load's "
           "addresses> to load it from few machines (docs/accounts.md)")


class SignInFailed(Exception):
    pass


@dataclass
class Answer:
    status: int                     # 0: no answer (transport error)
    body: Any = None
    code: str = ""                  # the error's stable code, when refused

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300


@dataclass
class Sent:
    """A command's fate: accepted (its events), refused (a code) or unanswered."""
    outcome: str
    sent_at: float                  # perf_counter of the first send
    events: list[dict] = field(default_factory=list)
    code: str = ""


class Lobby:
    def __init__(self, client: Any, metrics: Metrics, journal: JournalFile | None, client_tag: str):
        self.client, self.metrics, self.journal = client, metrics, journal
        self.client_tag = client_tag            # unique per simulated person: its command ids start with it
        self.player_id = ""
        self._access = self._refresh = ""
        self._commands = 0

    @property
    def headers(self) -> dict:
        return {"Authorization": f"Bearer {self._access}"} if self._access else {}

    # ---- who I am ------------------------------------------------------------------------------------

    def sign_in(self, accounts: str) -> None:
        if accounts == "register":
            name, password = f"lt{secrets.token_hex(8)}", secrets.token_urlsafe(18)
            self._session(self.call("POST", "/players", {"name": name, "password": password}))
            self._session(self.call("POST", "/sessions", {"name": name, "password": password}))
        else:
            self._session(self.call("POST", "/players/guest"))

    def _session(self, answer: Answer) -> None:
        if not answer.ok:
            raise SignInFailed(f"signing in: {answer.status} {answer.code}")
        self.player_id = answer.body["player_id"]
        self._access, self._refresh = answer.body["access_token"], answer.body["refresh_token"]

    def protocols(self) -> list[str]:
        """A single-use socket ticket, as the subprotocols to offer."""
        answer = self.call("POST", "/tickets", {})
        if not answer.ok:
            raise ConnectionError(f"no socket ticket: {answer.status} {answer.code}")
        return answer.body["protocols"]

    # ---- any call ------------------------------------------------------------------------------------

    def call(self, method: str, path: str, body: Any = None, *, name: str | None = None,
             fine: tuple[int, ...] = (), params: dict | None = None) -> Answer:
        """One call; statuses in `fine` (e.g. 409 for a race in the lobby) count as successes."""
        answer = self._once(method, path, body, name, fine, params)
        if answer.status == 401 and answer.code == "TOKEN_EXPIRED" and self._refresh:
            self._session(self._once("POST", "/sessions/refresh", {"refresh_token": self._refresh}, None, (), None))
            answer = self._once(method, path, body, name, fine, params)
        return answer

    def _once(self, method, path, body, name, fine, params) -> Answer:
        url = f"{path}?{urlencode(params)}" if params else path
        with self.client.request(method, url, json=body, headers=self.headers, name=name or path,
                                 catch_response=True) as reply:
            status = reply.status_code or 0
            try:
                parsed = reply.json() if reply.content else None
            except ValueError:
                parsed = None
            code = _code(parsed) if status >= 400 else ""
            if 200 <= status < 300 or status in fine:
                reply.success()
            elif status == 429:
                reply.failure(LIMITED)
            elif status:
                reply.failure(f"{status} {code}")
            # status 0: Locust has recorded the transport error already
            return Answer(status, parsed, code)

    # ---- commands ------------------------------------------------------------------------------------

    def command(self, game: str, game_id: str, command: dict, socket=None) -> Sent:
        """`socket`: the player's `LiveSocket` on the game, to move on (None: by POST)."""
        self._commands += 1
        command_id = f"{self.client_tag}-{self._commands}"
        stored_as = f"{self.player_id}:{command_id}"        # the lobby prefixes the player's id
        body = {"command": command, "command_id": command_id}
        sent_at = time.perf_counter()
        why = ""
        for attempt in range(ATTEMPTS):
            if attempt:
                time.sleep(0.2 * attempt)
            answer = self._moved(socket, command_id, command) if socket is not None else None
            if answer is None:
                # A rule's refusal (422 …) is part of play, not a failed request: it has its own row.
                answer = self.call("POST", f"/games/{game_id}/commands", body, name="/games/[id]/commands",
                                   fine=(403, 404, 409, 422))
            took = (time.perf_counter() - sent_at) * 1000
            if answer.ok:
                events = answer.body["events"]
                self._tell(game_id, stored_as, ACKNOWLEDGED, [e["seq"] for e in events])
                self.metrics.command(game, took)
                return Sent(ACKNOWLEDGED, sent_at, events)
            if 400 <= answer.status < 500:      # a 429 too: refused before anything was decided
                self._tell(game_id, stored_as, REFUSED, code=answer.code)
                self.metrics.refused(answer.code, took)
                return Sent(REFUSED, sent_at, code=answer.code)
            why = f"{answer.status or 'no answer'} {answer.code}".strip()
        self._tell(game_id, stored_as, UNANSWERED)
        self.metrics.unanswered(game, (time.perf_counter() - sent_at) * 1000, why)
        return Sent(UNANSWERED, sent_at)

    @staticmethod
    def _moved(socket, command_id: str, command: dict) -> Answer | None:
        """The socket's answer to the move as an HTTP answer would read; None: it went unanswered there
        (not open, dropped, too slow), so the same id goes by POST."""
        said = socket.move(command_id, command, MOVE_TIMEOUT)
        if said is None:
            return None
        if said.get("kind") == "ack":
            return Answer(200, {"command_id": command_id, "events": said.get("events", [])})
        code = str((said.get("error") or {}).get("code", "?"))
        return Answer(int(said.get("status") or 0), said, code)

    def _tell(self, game_id: str, command_id: str, outcome: str, seqs=(), code: str = "") -> None:
        if self.journal is not None:
            self.journal.record(BOARD, game_id, command_id, outcome, seqs, code)

    def actions(self, game_id: str) -> list[dict] | None:
        """My legal actions now ([] when I owe nothing), or None when the lobby did not say."""
        answer = self.call("GET", f"/games/{game_id}/actions", name="/games/[id]/actions")
        return answer.body if answer.ok and isinstance(answer.body, list) else None

    def table(self, table_id: str) -> dict | None:
        answer = self.call("GET", f"/tables/{table_id}", name="/tables/[id]")
        return answer.body if answer.ok else None


def _code(body: Any) -> str:
    try:
        return str(body["error"]["code"])
    except (KeyError, TypeError):           # not our error shape (a proxy's page, say)
        return "?"
