"""The simulated people: Locust user classes. Each player is one person with its own account or guest
session, its own HTTP connection and sockets; they meet only through the lobby, whichever worker
process or machine runs them.

| class | plays | seats |
|---|---|---|
| `Moon21Player` | 21Moon, the engine's bot (nothing hidden) | 3 |
| `T2038Player` | 2038, the engine's bot | 3 |
| `StellarPlayer` | Stellar Ventures, the lobby's legal actions (face-down tiles) | 3 |
| `TruckerPlayer` | Trucker: building moves on the real-time socket at a racing person's pace, the rest through the lobby | 2 |
| `Spectator` | watches a game being played (anonymous socket), then another | — |

A subclass with `game = "<engine>"` plays any other registered game the same way.
"""
from __future__ import annotations

import random
import secrets
import time
from functools import lru_cache
from typing import Any

from locust import FastHttpUser, constant, task

from starbase_load import coordination, seating
from starbase_load.choosers import full_information
from starbase_load.lobby import Lobby, SignInFailed
from starbase_load.metrics import SPECTATOR_SOCKET, Metrics
from starbase_load.options import Settings
from starbase_load.pace import Pace
from starbase_load.play import FINISHED, Game, Seat
from starbase_load.sockets import LiveSocket

QUICKPLAY = seating.QuickPlay()      # learnt once per process


@lru_cache(maxsize=None)
def engine_for(game: str, seats: int, options_json: str, bots: str) -> Any:
    """The engine when this game's players fold their pushes and ask its bot; None: legal actions."""
    import json

    from starbase_rules.registry import get_game
    if bots == "actions":
        return None
    try:
        engine = get_game(game)
    except Exception:
        if bots == "engine":
            raise ValueError(f"--starbase-bots engine needs the {game} engine installed here") from None
        return None
    if bots == "engine" or full_information(engine, seats, json.loads(options_json)):
        return engine
    return None


class StarbaseUser(FastHttpUser):
    abstract = True
    wait_time = constant(0)            # each task paces itself (`pace`)
    network_timeout = 30.0
    connection_timeout = 10.0

    def on_start(self) -> None:
        self.settings = Settings.of(self.environment)
        self.metrics = Metrics(self.environment)
        self.rnd = random.Random(secrets.randbits(64))
        self.pace = Pace(self.settings.think, self.rnd)
        self.ws_base = "ws" + self.host[len("http"):] if self.host.startswith("http") else self.host
        self.ws_base = self.ws_base.rstrip("/")


class StarbasePlayer(StarbaseUser):
    abstract = True
    game = ""
    seats = 3

    def on_start(self) -> None:
        super().on_start()
        self.lobby = Lobby(self.client, self.metrics, coordination.journal(self.environment),
                           f"lt{secrets.token_hex(6)}")
        self.signed_in = False
        self.seat: Seat | None = None
        self.left = ""              # the table this player last left without playing

    @task
    def play_a_game(self) -> None:
        if not self._sign_in():
            return
        seats = self.settings.seats or self.seats
        looking = time.monotonic()
        table_id = seating.take_seat(self.lobby, self.game, seats, self.settings.options, self.rnd, QUICKPLAY,
                                     avoid=self.left)
        table = table_id and seating.until_started(self.lobby, table_id, 0.3 if not self.pace.scale else 1.0)
        if not table:
            self.left = table_id or ""
            time.sleep(self.rnd.uniform(0.2, 1.0))
            return
        self.left = ""
        # One player per table counts its game: the one in the first seat.
        host = next(s["player_id"] for s in table["seats"] if s["player_id"]) == self.lobby.player_id
        if host:
            self.metrics.game_started(self.game, (time.monotonic() - looking) * 1000)
        engine = engine_for(self.game, seats, _canonical(self.settings.options), self.settings.bots)
        began = time.monotonic()
        self.seat = Seat(self.lobby, self.metrics, self.lobby.journal,
                         Game(self.game, table["game_id"], self.ws_base, table.get("realtime_url")),
                         engine, self.pace, self.rnd, self.settings.abandon,
                         moves_on_socket=self.settings.moves == "socket")
        outcome = self.seat.play()
        self.seat = None
        if host:
            length = (time.monotonic() - began) * 1000
            if outcome == FINISHED:
                self.metrics.game_finished(self.game, length)
            else:
                self.metrics.game_abandoned(self.game, length, outcome)
        time.sleep(self.pace.between_games())

    def _sign_in(self) -> bool:
        if self.signed_in:
            return True
        try:
            self.lobby.sign_in(self.settings.accounts)
            self.signed_in = True
        except SignInFailed as failed:
            self.metrics.problem("sign in", str(failed))
            time.sleep(self.rnd.uniform(1.0, 3.0))
        return self.signed_in

    def on_stop(self) -> None:
        if self.seat is not None:
            self.seat.close()


class Moon21Player(StarbasePlayer):
    game = "moon21"


class T2038Player(StarbasePlayer):
    game = "t2038"


class StellarPlayer(StarbasePlayer):
    game = "stellar"


class TruckerPlayer(StarbasePlayer):
    game = "trucker"
    seats = 2


class Spectator(StarbaseUser):
    """Looks at the games being played, watches one for a while (or to its end), then another."""

    weight = 1

    def on_start(self) -> None:
        super().on_start()
        self.socket: LiveSocket | None = None

    @task
    def watch_a_game(self) -> None:
        page = self.client.get("/tables?status=playing&limit=50", name="/tables?status=playing")
        tables = page.json().get("items", []) if page.status_code == 200 else []
        if not tables:
            time.sleep(self.rnd.uniform(2.0, 5.0))
            return
        table = self.rnd.choice(tables)
        self.socket = LiveSocket(f"{self.ws_base}/games/{table['game_id']}/ws", SPECTATOR_SOCKET, self.metrics)
        self.socket.start()
        until = time.monotonic() + self.rnd.uniform(20.0, 90.0)
        try:
            while time.monotonic() < until and not self.socket.ended and not self.socket.refused:
                self.socket.wait_news(min(5.0, until - time.monotonic()))
        finally:
            self.socket.close()
            self.socket = None

    def on_stop(self) -> None:
        if self.socket is not None:
            self.socket.close()


def _canonical(options: dict) -> str:
    import json
    return json.dumps(options, sort_keys=True)
