"""`starbase load`: the Locust scenario (`starbase_load`), headless, bounded, reported and checked.

    starbase load                                           # moon21, 6 users (5 players, 1 spectator), 60 s
    starbase load --game moon21 --game trucker --users 20 --duration 120 --workers 2 --json

Players sign in, find tables, play real games over HTTP and WebSocket at a person's pace (or
`--flat-out`), and Trucker players build on the real-time socket. It stops by itself at `--duration`
(or once `--games` games were played out, or `--max-commands` sent), then holds the event store to
what every player was told (`--nats`: the chaos checker) and prints Locust's figures and the verdict;
the HTML report, CSVs, journals and verdict stay in `--out`. Only against this machine unless
`--allow-remote`. For the web UI, or workers on other machines: `python -m starbase_load`.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

from starbase_cli.play import parse_options

DEFAULT_LOBBY = "http://127.0.0.1:8000"
SHOWN = ("COMMAND", "REFUSED", "PUSH", "TRUCKER", "GAME", "SOCKET", "ERROR", "CHECK")


def register(subparsers) -> None:
    parser = subparsers.add_parser("load", help="load test a running lobby with the Locust scenario (headless)",
                                   description=__doc__.split("\n\n")[0])
    parser.add_argument("--lobby", default=os.environ.get("LOBBY_URL", DEFAULT_LOBBY),
                        help=f"the lobby's base URL (default: LOBBY_URL or {DEFAULT_LOBBY})")
    parser.add_argument("--game", action="append", choices=["moon21", "t2038", "stellar", "trucker"],
                        help="players of this game (repeatable; default moon21)")
    parser.add_argument("--users", type=_positive, default=6, help="simulated people in all (default 6)")
    parser.add_argument("--spectators", type=_not_negative, default=1, help="of them, spectators (default 1)")
    parser.add_argument("--spawn-rate", type=float, default=0.0, help="users started per second (default: users/2)")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds before it stops (default 60)")
    parser.add_argument("--games", type=_not_negative, default=0, help="stop once this many games were played out")
    parser.add_argument("--max-commands", type=_not_negative, default=0,
                        help="stop once this many commands and moves were sent")
    parser.add_argument("--seats", type=_not_negative, default=0, help="players per table (default: 3, Trucker 2)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=JSON", help="a table option (repeatable)")
    parser.add_argument("--bots", choices=["auto", "engine", "actions"], default="auto",
                        help="engine: the engine's bot on the pushed events; actions: a legal action from the "
                             "lobby; auto: engine when the game hides nothing (default)")
    parser.add_argument("--think", type=float, default=1.0, help="think times x this (default 1: a person's pace)")
    parser.add_argument("--flat-out", action="store_true", help="no think time at all")
    parser.add_argument("--accounts", choices=["guest", "register"], default="guest",
                        help="guests (default), or register and log in (argon2id on the lobby for each)")
    parser.add_argument("--moves", choices=["socket", "http"], default="socket",
                        help="players move on their game socket, as the web client does (default), or by POST")
    parser.add_argument("--workers", type=_not_negative, default=0,
                        help="worker processes under a Locust master on this machine (default 0: one process)")
    parser.add_argument("--out", default="", help="where reports, CSVs and journals go (default .load/<time>)")
    parser.add_argument("--nats", default=os.environ.get("NATS_URL", "nats://127.0.0.1:4222"),
                        help="the event store the check reads (default NATS_URL or make run's)")
    parser.add_argument("--stream", default=os.environ.get("EVENT_STREAM", "STARBASE"),
                        help="the event stream's name (default EVENT_STREAM or STARBASE)")
    parser.add_argument("--prefix", default=os.environ.get("EVENT_SUBJECT_PREFIX", "sb"),
                        help="the event subjects' prefix (default EVENT_SUBJECT_PREFIX or sb)")
    parser.add_argument("--redis", default="", help="also check every finished game was scored once, in this Redis")
    parser.add_argument("--no-check", action="store_true", help="do not check the store afterwards")
    parser.add_argument("--allow-remote", action="store_true", help="allow a lobby that is not on this machine")
    parser.add_argument("--json", action="store_true", help="print the figures and the verdict as JSON")
    parser.set_defaults(handler=run)


def run(args) -> int:
    from starbase_load.run import Plan, run as run_plan
    from starbase_load.target import target_problem

    if problem := target_problem(args.lobby, args.allow_remote):
        print(f"starbase load: {problem}")
        return 2
    out = Path(args.out or f".load/{time.strftime('%Y%m%d-%H%M%S')}")
    try:
        plan = Plan(lobby=args.lobby.rstrip("/"), games=args.game or ["moon21"], users=args.users,
                    spectators=args.spectators, spawn_rate=args.spawn_rate, duration=args.duration,
                    max_games=args.games, max_commands=args.max_commands, seats=args.seats,
                    options=parse_options(args.option), bots=args.bots, think=0.0 if args.flat_out else args.think,
                    accounts=args.accounts, moves=args.moves, workers=args.workers, out=out, check=not args.no_check,
                    nats=args.nats, stream=args.stream, prefix=args.prefix, redis=args.redis, allow_remote=args.allow_remote)
        plan.arguments()
    except ValueError as refused:
        print(f"starbase load: {refused}")
        return 2
    result = run_plan(plan)
    figures = {"exit_code": result.exit_code, "out": str(out), "verdict": result.verdict,
               "rows": [_row(r) for r in result.rows]}
    print(json.dumps(figures, indent=2) if args.json else render(figures))
    return result.exit_code


def _row(row: dict) -> dict:
    number = lambda key: float(row.get(key) or 0)  # noqa: E731
    return {"type": row["Type"], "name": row["Name"], "count": int(number("Request Count")),
            "failures": int(number("Failure Count")), "per_s": round(number("Requests/s"), 2),
            "p50_ms": number("50%"), "p95_ms": number("95%"), "p99_ms": number("99%"), "max_ms": number("Max Response Time")}


def render(figures: dict) -> str:
    from starbase_load.report import render as render_verdict

    lines = [f"{'type':<8} {'name':<34} {'count':>7} {'fail':>5} {'/s':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}"]
    rows = sorted(figures["rows"], key=lambda r: (r["type"] not in SHOWN, r["type"], r["name"]))
    for r in rows:
        lines.append(f"{r['type']:<8} {r['name'][:34]:<34} {r['count']:>7} {r['failures']:>5} {r['per_s']:>7} "
                     f"{r['p50_ms']:>8.0f} {r['p95_ms']:>8.0f} {r['p99_ms']:>8.0f}")
    lines.append("")
    lines.append(render_verdict(figures["verdict"]) if figures["verdict"] else "Starbase check: not run")
    lines.append(f"\nreports: {figures['out']}/report.html, {figures['out']}/load_stats.csv "
                 f"(Locust's log: {figures['out']}/locust.log); exit status {figures['exit_code']}")
    return "\n".join(lines)


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise ValueError(text)
    return value


def _not_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise ValueError(text)
    return value
