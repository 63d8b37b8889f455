"""`starbase play GAME --players N --seed S [--json]`: a whole game with built-in bots, engine only."""
from __future__ import annotations

import json
import sys

from starbase_core.gamestream import engine_options
from starbase_rules.contract import RuleViolation
from starbase_rules.playout import PlayoutError, playout
from starbase_rules.registry import ENGINES, get_game

PLAYER_NAMES = ["ann", "bob", "cy", "dee", "eve", "fay"]


def register(subparsers) -> None:
    parser = subparsers.add_parser("play", help="play a whole game with bots through the engine alone")
    parser.add_argument("game", choices=sorted(ENGINES))
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=JSON",
                        help="a table option, e.g. --option variant='\"short\"' (repeatable)")
    parser.add_argument("--json", action="store_true", help="print the standings as JSON")
    parser.set_defaults(handler=run)


def parse_options(pairs: list[str]) -> dict:
    options = {}
    for pair in pairs:
        key, _, raw = pair.partition("=")
        try:
            options[key] = json.loads(raw)
        except json.JSONDecodeError:
            options[key] = raw
    return options


def fail(message: str) -> int:
    print(f"starbase play: {message}", file=sys.stderr)
    return 2


def run(args) -> int:
    try:
        game = get_game(args.game)
    except (RuleViolation, ModuleNotFoundError) as problem:
        return fail(str(problem))
    # Checked on the number asked for, before names are given (a slice would quietly cut 7 to 6).
    if not game.min_players <= args.players <= game.max_players:
        return fail(f"{args.game} takes {game.min_players} to {game.max_players} players, not {args.players}")
    players = [PLAYER_NAMES[i] if i < len(PLAYER_NAMES) else f"p{i + 1}" for i in range(args.players)]
    try:
        result = playout(game, players, args.seed, engine_options(parse_options(args.option)))
    except RuleViolation as refusal:     # the engine's setup refuses these players or options
        return fail(f"{args.game} cannot start: {refusal.message} ({refusal.code})")
    except PlayoutError as failure:
        print(f"starbase play: {failure}", file=sys.stderr)
        return 1
    standings = [s.model_dump() for s in result.outcome.standings]
    if args.json:
        print(json.dumps({"game": args.game, "seed": args.seed, "events": len(result.events),
                          "commands": result.commands, "reason": result.outcome.reason,
                          "standings": standings}, indent=2))
    else:
        print(f"{args.game}, {args.players} players, seed {args.seed}: {len(result.events)} events, "
              f"{result.commands} commands. {result.outcome.reason}")
        for row in standings:
            print(f"  {row['rank']}. {row['player']:<6} {row['score']:g}")
    return 0
