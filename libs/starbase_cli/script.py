"""`starbase script run FILE`: replay a game script and stop at the first mismatch.

A script is JSON:
    {"game": "moon21", "players": ["ann", "bob"], "options": {}, "seed": "7",
     "commands": [{"actor": "ann", "command": {"type": ...}, "expect": "accepted" | "<REFUSAL_CODE>"}],
     "final_standings": [{"player": "ann", "rank": 1, "score": 1234}]}     # optional
The seed string drives one FairRng for the setup and every command, in order.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from starbase_core.gamestream import engine_options
from starbase_rules.contract import RuleViolation, fold
from starbase_rules.fair import FairRng
from starbase_rules.registry import get_game


@dataclass
class ScriptResult:
    ok: bool
    message: str
    state: object = None


def run_script(script: dict) -> ScriptResult:
    game = get_game(script["game"])
    rng = FairRng(str(script.get("seed", "0")).encode())
    events = game.setup(script["players"], engine_options(script.get("options", {})), rng)
    state = fold(game, events)
    for number, step in enumerate(script.get("commands", []), start=1):
        expected = step.get("expect", "accepted")
        where = f"command {number} ({step.get('command', {}).get('type', '?')} by {step.get('actor')})"
        try:
            command = game.parse_command(step["command"])
            new_events = game.decide(state, command, step.get("actor"), rng)
        except RuleViolation as refusal:
            if expected != refusal.code:
                return ScriptResult(False, f"{where}: expected {expected}, refused {refusal.code}: {refusal.message}", state)
            continue
        if expected != "accepted":
            return ScriptResult(False, f"{where}: expected refusal {expected}, but it was accepted", state)
        state = fold(game, new_events, state)
    wanted = script.get("final_standings")
    if wanted is not None:
        outcome = game.outcome(state)
        if outcome is None:
            return ScriptResult(False, "the script ended but the game is not over", state)
        got = [s.model_dump() for s in outcome.standings]
        if _comparable(got) != _comparable(wanted):
            return ScriptResult(False, f"final standings differ: expected {wanted}, got {got}", state)
    return ScriptResult(True, f"{len(script.get('commands', []))} commands as expected", state)


def _comparable(standings: list[dict]) -> list[tuple]:
    return sorted((row["player"], row["rank"], float(row["score"])) for row in standings)


def register(subparsers) -> None:
    parser = subparsers.add_parser("script", help="game scripts")
    actions = parser.add_subparsers(dest="script_command", required=True)
    run_parser = actions.add_parser("run", help="run a game script, fail at the first mismatch")
    run_parser.add_argument("file")
    run_parser.set_defaults(handler=run)


def run(args) -> int:
    try:
        with open(args.file) as handle:
            script = json.load(handle)
    except (OSError, json.JSONDecodeError) as problem:
        print(f"starbase script: cannot read {args.file}: {problem}")
        return 2
    try:
        result = run_script(script)
    except (KeyError, RuleViolation) as problem:
        print(f"starbase script: {args.file}: malformed script: {problem}")
        return 2
    print(f"{args.file}: {'ok' if result.ok else 'FAILED'}: {result.message}")
    return 0 if result.ok else 1
