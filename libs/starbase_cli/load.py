"""`starbase load`: drive a running lobby with tables of bot players, and print figures you can check.

    starbase load                                     # moon21, 4 tables, 60 s, on http://127.0.0.1:8000
    starbase load --game stellar --tables 8 --duration 120 --max-commands 20000 --json

Only HTTP and WebSocket, like real players (see `starbase_cli.loadgen`). It refuses any lobby that is not on
this machine unless `--allow-remote` is given: a load run opens tables and registers players, which an
operator should do to someone else's lobby only on purpose.
"""
from __future__ import annotations

import asyncio
import ipaddress
import json
import os
import signal
import socket
from urllib.parse import urlsplit

from starbase_cli.play import parse_options

DEFAULT_LOBBY = "http://127.0.0.1:8000"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "load", help="drive a running lobby with bot players over HTTP + WebSocket and print figures",
        description=__doc__.split("\n\n")[0])
    parser.add_argument("--lobby", default=os.environ.get("LOBBY_URL", DEFAULT_LOBBY),
                        help=f"the lobby's base URL (default: LOBBY_URL or {DEFAULT_LOBBY})")
    parser.add_argument("--game", default="moon21", help="the game to play (default moon21)")
    parser.add_argument("--tables", type=_positive, default=4, help="tables playing at once (default 4)")
    parser.add_argument("--seats", type=_positive, default=3, help="players per table (default 3)")
    parser.add_argument("--spectators", type=_not_negative, default=1,
                        help="anonymous spectator sockets per table (default 1)")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds before it stops (default 60)")
    parser.add_argument("--max-commands", type=_positive, default=5000,
                        help="stop after sending this many commands (default 5000)")
    parser.add_argument("--games", type=_positive, default=None,
                        help="stop after this many games (default: keep starting new ones)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=JSON",
                        help="a table option (repeatable)")
    parser.add_argument("--bots", choices=["auto", "engine", "actions"], default="auto",
                        help="engine: the engine's bot on the state folded from pushes (games without hidden "
                             "information); actions: a random legal action from the lobby; auto: engine when "
                             "the game hides nothing (default)")
    parser.add_argument("--seed", type=int, default=1, help="the bots' random seed")
    parser.add_argument("--allow-remote", action="store_true",
                        help="allow a lobby that is not on this machine")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(handler=run)


def run(args) -> int:
    from starbase_cli.loadgen import Budget, LoadPlan, run_load

    problem = target_problem(args.lobby, args.allow_remote)
    if problem:
        print(f"starbase load: {problem}")
        return 2
    plan = LoadPlan(lobby=args.lobby.rstrip("/"), game=args.game, tables=args.tables, seats=args.seats,
                    spectators=args.spectators, duration=args.duration, max_commands=args.max_commands,
                    games=args.games, options=parse_options(args.option), bots=args.bots, seed=args.seed)

    async def main():
        budget = Budget(plan)
        try:    # Ctrl-C ends the run early, and it still reports what it measured
            asyncio.get_running_loop().add_signal_handler(signal.SIGINT, budget.stop)
        except (NotImplementedError, RuntimeError, ValueError):     # not the main thread (tests), or Windows
            pass
        return await run_load(plan, budget=budget)

    try:
        report = asyncio.run(main())
    except ValueError as refused:
        print(f"starbase load: {refused}")
        return 2
    figures = report.figures()
    print(json.dumps(figures, indent=2) if args.json else render(figures))
    return 1 if figures["errors"] or figures["commands"]["unanswered"] else 0


def target_problem(url: str, allow_remote: bool) -> str | None:
    """Why this lobby URL may not be loaded, or None. Non-loopback hosts need `allow_remote`."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f"--lobby must be an http:// or https:// URL, not {url!r}"
    if allow_remote:
        return None
    try:
        addresses = {info[4][0] for info in socket.getaddrinfo(parts.hostname, parts.port or 80)}
    except OSError:
        addresses = set()
    if addresses and all(ipaddress.ip_address(address.split("%")[0]).is_loopback for address in addresses):
        return None
    return (f"{parts.hostname} is not this machine: a load run opens tables and registers players there. "
            f"Add --allow-remote if you mean it.")


def render(figures: dict) -> str:
    commands, rt, pushes = figures["commands"], figures["round_trip_ms"], figures["pushes"]
    games = figures["games"]
    lines = [
        f"starbase load: {figures['game']} on {figures['lobby']}, {figures['tables']} tables x "
        f"{figures['seats']} players + {figures['spectators']} spectator socket(s), bots: {figures['bots']}",
        f"  ran {figures['elapsed_s']:.1f} s, stopped by: {figures['stopped']}",
        f"  commands   sent {commands['sent']} = accepted {commands['accepted']} + refused {commands['refused']}"
        f" + unanswered {commands['unanswered']}   ({commands['accepted_per_s']} accepted/s)",
    ]
    if commands["refused_codes"]:
        codes = ", ".join(f"{code} {n}" for code, n in sorted(commands["refused_codes"].items(), key=lambda i: -i[1]))
        lines.append(f"             refused by code: {codes}")
    lines.append(f"  round trip (accepted commands: send -> 200 reply) {_percentiles(rt)}")
    lines.append(f"  pushes     {pushes['events']} events to {pushes['sockets']} sockets ({pushes['per_s']}/s)")
    lines.append(f"  command -> push (send -> event on each socket) {_percentiles(pushes['command_to_push_ms'])}")
    if figures["action_reads"]:
        lines.append(f"  legal-action reads {figures['action_reads']}")
    lines.append(f"  games      started {games['started']}, finished {games['finished']}")
    if games["finished_ids"]:
        lines.append(f"             check any with: starbase audit {games['finished_ids'][0]}")
    if figures["errors"]:
        lines.append("  ERRORS")
        lines.extend(f"    {n} x {kind}" for kind, n in sorted(figures["errors"].items(), key=lambda i: -i[1]))
    else:
        lines.append("  errors     none")
    return "\n".join(lines)


def _percentiles(summary: dict) -> str:
    if not summary.get("n"):
        return "n=0"
    return (f"n={summary['n']}  p50 {summary['p50']} ms  p90 {summary['p90']} ms  p99 {summary['p99']} ms"
            f"  max {summary['max']} ms")


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
