"""`starbase import 18xx FILE` and `starbase export --format 18xx GAME_ID`: 21Moon games of 18xx.games.

    starbase import 18xx game.json [--json] [-o game.jsonl] [--keep-going] [--option KEY=JSON] [--game-id ID]
    starbase export --format 18xx GAME_ID [--file game.jsonl] [-o game.json]

The import replays the site's saved game through the 21Moon engine (`moon21.site18xx`) with the site's
readings (table option ruleset "18xx.games"; `--option ruleset='"rulebook"'` shows where the rulebook
parts ways) and prints the final result; `--json` prints it in the site's form, `{"player id": score}`.
`-o` writes the game as a Starbase stream (JSON lines) that `starbase audit GAME_ID --file` verifies.
Exit codes: 0 imported to the end (with the site's recorded result, when it has one); 1 the engine
parted ways with the site (the first divergence, or all with `--keep-going`) or the result differs;
2 the file or an option is unusable. Errors are one line on stderr.
"""
from __future__ import annotations

import json
import sys
import time

from moon21.site18xx.exporter import export_game
from moon21.site18xx.gamefile import BadGameFile
from moon21.site18xx.importer import import_game
from starbase_cli.play import parse_options
from starbase_core.envelope import InvalidName
from starbase_core.gamestream import GAME_CREATED, is_platform
from starbase_core.imported import imported_stream, stamp
from starbase_rules.contract import RuleViolation

EXIT_OK, EXIT_DIVERGED, EXIT_UNUSABLE = 0, 1, 2
MAX_FILE_BYTES = 50 * 1024 * 1024


def register(subparsers) -> None:
    parser = subparsers.add_parser("import", help="import a game of another site")
    sites = parser.add_subparsers(dest="site", required=True)
    site = sites.add_parser("18xx", help="a 21Moon game saved on 18xx.games (its JSON)")
    site.add_argument("file", metavar="FILE")
    site.add_argument("--json", action="store_true", help='print the result as {"player id": score}')
    site.add_argument("-o", "--output", help="write the game's Starbase stream (JSON lines) here")
    site.add_argument("--keep-going", action="store_true", help="list every divergence, not only the first")
    site.add_argument("--option", action="append", default=[], metavar="KEY=JSON",
                      help="a table option over the site's readings, e.g. ruleset='\"rulebook\"'")
    site.add_argument("--game-id", help="the Starbase game id of the stream (default: 18xx-<site id>)")
    site.set_defaults(handler=run_import)


def _fail(message: str, code: int) -> int:
    print(f"starbase import 18xx: {message}", file=sys.stderr)
    return code


def run_import(args) -> int:
    try:
        with open(args.file, "rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        return _fail(f"cannot read {args.file}: {error.strerror or error}", EXIT_UNUSABLE)
    if len(raw) > MAX_FILE_BYTES:
        return _fail(f"{args.file} is larger than {MAX_FILE_BYTES // 2**20} MB", EXIT_UNUSABLE)
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        return _fail(f"{args.file} is not JSON: {error}", EXIT_UNUSABLE)
    started = time.perf_counter()
    try:
        result = import_game(data, parse_options(args.option), keep_going=args.keep_going)
    except BadGameFile as error:
        return _fail(f"{args.file}: {error}", EXIT_UNUSABLE)
    except RuleViolation as error:
        return _fail(f"{error.code}: {error.message}", EXIT_UNUSABLE)
    seconds = time.perf_counter() - started
    for divergence in result.divergences:
        print(f"diverged at {divergence.line()}\n  site action: "
              f"{json.dumps(divergence.action, separators=(',', ':'), ensure_ascii=False)}", file=sys.stderr)
    if result.divergences:
        return EXIT_DIVERGED
    final = result.result
    recorded = result.game.result
    if args.json:
        print(json.dumps(final))
    else:
        print(_summary(result, seconds))
    if final is None or (recorded and final != recorded):
        return _fail(f"the result {final} is not the site's recorded {recorded}", EXIT_DIVERGED)
    if args.output:
        return _write_stream(args, result)
    return EXIT_OK


def _summary(result, seconds: float) -> str:
    checks = result.checks
    return (f"imported 18xx.games game {result.game.game_id}: {result.moves} moves -> {len(result.steps)} "
            f"commands in {seconds:.2f} s; compared with the site: {checks.get('runs', 0)} runs, "
            f"{checks.get('purchases', 0)} transport purchases, {checks.get('operating_turns', 0)} operating "
            f"and {checks.get('corporate_turns', 0)} corporate turns\nresult {json.dumps(result.result)} "
            f"(recorded {json.dumps(result.game.result)})")


def _write_stream(args, result) -> int:
    from moon21.game import GAME
    game_id = args.game_id or f"18xx-{result.game.game_id or 'game'}"
    commands = [(step.actor, step.command.model_dump(mode="json"), step.events, when)
                for step, when in zip(result.steps, _step_times(result))]
    try:
        envelopes = imported_stream(game_id, GAME.name, list(result.game.players), result.options,
                                    result.origin(), result.setup, commands, GAME.outcome(result.state),
                                    created_at=_first_time(result))
    except InvalidName as error:
        return _fail(str(error), EXIT_UNUSABLE)
    try:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.writelines(envelope.model_dump_json() + "\n" for envelope in envelopes)
    except OSError as error:
        return _fail(f"cannot write {args.output}: {error.strerror or error}", EXIT_UNUSABLE)
    return EXIT_OK


def _effective(actions):
    from moon21.site18xx.gamefile import effective_actions
    return effective_actions(actions)


def _step_times(result) -> list:
    """Each command's time: its site action's, or the one before (passes the import added)."""
    effective = _effective(result.game.actions)
    return [None if step.index is None else stamp(effective[step.index].get("created_at"))
            for step in result.steps]


def _first_time(result) -> str | None:
    return next((stamp(a.get("created_at")) for a in result.game.actions if a.get("created_at")), None)


# -- export ------------------------------------------------------------------------------------------

def export_18xx(envelopes, game_id: str) -> dict:
    """The site's saved game for a 21Moon stream (raises ValueError for any other stream)."""
    from moon21.game import GAME
    if not envelopes or envelopes[0].type != GAME_CREATED or envelopes[0].data.get("game") != GAME.name:
        raise ValueError(f"game {game_id} is not a 21Moon game: only 21Moon exports to 18xx.games")
    setup, commands = [], []
    for envelope in envelopes[1:]:
        if "command" in envelope.meta:
            commands.append((envelope.actor, envelope.meta["command"], []))
        if is_platform(envelope):
            continue
        event = GAME.parse_event(envelope.data)
        (commands[-1][2] if commands else setup).append(event)
    return export_game(setup, commands, game_id)


def run_export(args, envelopes) -> int:
    """`starbase export --format 18xx`: called by `starbase_cli.audit.run_export`."""
    try:
        game = export_18xx(envelopes, args.game_id)
    except (ValueError, RuleViolation, KeyError, StopIteration) as error:
        print(f"starbase export: {error}", file=sys.stderr)
        return EXIT_DIVERGED
    text = json.dumps(game, ensure_ascii=False, indent=1) + "\n"
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        sys.stdout.write(text)
    return EXIT_OK
