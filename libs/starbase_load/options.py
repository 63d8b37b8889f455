"""The scenario's own command-line options (`--starbase-…`), beside Locust's (`-u`, `-r`, `-t`, `-H`, …).

Locust sends the master's options to its workers when a test starts, so they are given once, to the
master (or to a single process). `Settings.of(environment)` reads them with safe defaults, also when
the scenario runs without a command line (a test's own `Environment`).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

BOTS = ("auto", "engine", "actions")
ACCOUNTS = ("guest", "register")
MOVES = ("socket", "http")


def add_options(parser: Any) -> None:
    group = parser.add_argument_group("Starbase", "the Starbase scenario (docs/load-testing.md)")
    group.add_argument("--starbase-seats", type=int, default=0, metavar="N",
                       help="players per table (default: each user class's own: 3, Trucker 2)")
    group.add_argument("--starbase-options", default="{}", metavar="JSON",
                       help="table options, a JSON object (default {})")
    group.add_argument("--starbase-bots", choices=BOTS, default="auto",
                       help="engine: the engine's bot on the state folded from the pushes; actions: a legal "
                            "action from the lobby; auto: engine when the game hides nothing (default)")
    group.add_argument("--starbase-accounts", choices=ACCOUNTS, default="guest",
                       help="guest (default), or register an account and log in with it (argon2id on the "
                            "lobby: about a second of its CPU per registration and per log-in)")
    group.add_argument("--starbase-think", type=float, default=1.0, metavar="SCALE",
                       help="think times x SCALE (1: a person's pace, 0: none; default 1)")
    group.add_argument("--starbase-flat-out", action="store_true",
                       help="no think time at all (the same as --starbase-think 0)")
    group.add_argument("--starbase-games", type=int, default=0, metavar="N",
                       help="stop once N games have been played out (default: no such bound)")
    group.add_argument("--starbase-max-commands", type=int, default=0, metavar="N",
                       help="stop once N commands and moves have been sent (default: no such bound)")
    group.add_argument("--starbase-spectators", type=int, default=-1, metavar="N",
                       help="exactly N Spectator users (default: by their weight, like any user class)")
    group.add_argument("--starbase-moves", choices=MOVES, default="socket",
                       help="how players send their moves: on their game socket, as the web client does "
                            "(default), or by POST /games/{id}/commands")
    group.add_argument("--starbase-abandon", type=float, default=300.0, metavar="SECONDS",
                       help="give a game up after this long without any event (default 300)")
    group.add_argument("--starbase-journal-dir", default=".load/journal", metavar="DIR",
                       help="where each process writes its journal, and the master its workers' (default .load/journal)")
    group.add_argument("--starbase-check", choices=("on", "off"), default="on",
                       help="after the run, hold the event store to the journals (default on)")
    group.add_argument("--starbase-nats", default="nats://127.0.0.1:4222", metavar="URL",
                       help="the event store the check reads (default nats://127.0.0.1:4222, make run's)")
    group.add_argument("--starbase-stream", default="STARBASE", help="the event stream (default STARBASE)")
    group.add_argument("--starbase-prefix", default="sb", help="its subject prefix (default sb)")
    group.add_argument("--starbase-redis", default="", metavar="URL",
                       help="also check every finished game was scored once, in this Redis (default: not checked)")
    group.add_argument("--starbase-scoring-prefix", default="scoring", help="scoring's Redis key prefix")
    group.add_argument("--starbase-allow-remote", action="store_true",
                       help="allow a lobby that is not on this machine")


@dataclass(frozen=True)
class Settings:
    seats: int = 0
    options: dict = field(default_factory=dict)
    bots: str = "auto"
    accounts: str = "guest"
    think: float = 1.0
    games: int = 0
    max_commands: int = 0
    spectators: int = -1
    abandon: float = 300.0
    journal_dir: str = ".load/journal"
    check: bool = True
    nats: str = "nats://127.0.0.1:4222"
    stream: str = "STARBASE"
    prefix: str = "sb"
    redis: str = ""
    scoring_prefix: str = "scoring"
    allow_remote: bool = False
    moves: str = "socket"

    @classmethod
    def of(cls, environment: Any) -> "Settings":
        parsed = getattr(environment, "parsed_options", None)
        if parsed is None:
            return cls()
        get = lambda name, default: getattr(parsed, f"starbase_{name}", default)  # noqa: E731
        options = get("options", "{}")
        options = json.loads(options) if isinstance(options, str) else dict(options)
        if not isinstance(options, dict):
            raise ValueError("--starbase-options must be a JSON object")
        think = 0.0 if get("flat_out", False) else float(get("think", 1.0))
        if think < 0:
            raise ValueError("--starbase-think must be 0 or more")
        return cls(seats=int(get("seats", 0)), options=options, bots=get("bots", "auto"),
                   accounts=get("accounts", "guest"), think=think, games=int(get("games", 0)),
                   max_commands=int(get("max_commands", 0)), spectators=int(get("spectators", -1)),
                   abandon=float(get("abandon", 300.0)), journal_dir=get("journal_dir", ".load/journal"),
                   check=get("check", "on") == "on", nats=get("nats", cls.nats), stream=get("stream", "STARBASE"),
                   prefix=get("prefix", "sb"), redis=get("redis", ""),
                   scoring_prefix=get("scoring_prefix", "scoring"), allow_remote=bool(get("allow_remote", False)),
                   moves=get("moves", "socket"))
