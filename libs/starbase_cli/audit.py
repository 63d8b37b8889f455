"""`starbase audit | log | export GAME_ID`: verify, read and export a game's stream.

    starbase audit GAME_ID              # from JetStream (NATS_URL, EVENT_STREAM, EVENT_SUBJECT_PREFIX)
    starbase audit GAME_ID --file F     # from a JSON-lines export (`-` for stdin)
    starbase log GAME_ID                # one readable line per event
    starbase export GAME_ID [-o F]      # JSON lines, one envelope per line, that `audit --file` reads

Exit codes: 0 the audit passes; 1 a problem was found (or the stream could not be read);
3 the chain is intact but the game is not over, so its seed and draws cannot be checked yet.
Wire-up: `register(subparsers)` adds the three commands; each sets `handler(args) -> exit code`.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import sys
from typing import Iterable

from starbase_core.audit import FAIL, PASS, audit_game
from starbase_core.envelope import Envelope
from starbase_core.gamelog import envelope_text, export_line

EXIT_OK, EXIT_FAILED, EXIT_UNFINISHED = 0, 1, 3


def register(subparsers) -> None:
    audit = subparsers.add_parser("audit", help="verify a game: hash chain, seed, every command and draw")
    _source_options(audit)
    audit.add_argument("--file", help="a JSON-lines export to audit instead of the live stream ('-': stdin)")
    audit.set_defaults(handler=run_audit)

    log = subparsers.add_parser("log", help="print a game's events as a readable log")
    _source_options(log)
    log.add_argument("--file", help="read a JSON-lines export instead of the live stream ('-': stdin)")
    log.set_defaults(handler=run_log)

    export = subparsers.add_parser("export", help="write a game's stream as JSON lines")
    _source_options(export)
    export.add_argument("-o", "--output", help="file to write (default: stdout)")
    export.add_argument("--file", help="read a JSON-lines export instead of the live stream ('-': stdin)")
    export.add_argument("--format", choices=["jsonl", "18xx"], default="jsonl",
                        help="jsonl: the stream; 18xx: a 21Moon game as 18xx.games' saved game (site18xx.py)")
    export.set_defaults(handler=run_export)


def _source_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game_id", metavar="GAME_ID")
    parser.add_argument("--nats-url", default=os.environ.get("NATS_URL", "nats://127.0.0.1:4222"))
    parser.add_argument("--event-stream", default=os.environ.get("EVENT_STREAM", "STARBASE"))
    parser.add_argument("--subject-prefix", default=os.environ.get("EVENT_SUBJECT_PREFIX", "sb"))


def run_audit(args) -> int:
    try:
        envelopes = _load(args)
    except (OSError, ValueError, ConnectionError) as error:
        print(f"VERDICT: {FAIL}: could not read the stream: {error}", file=sys.stderr)
        return EXIT_FAILED
    from starbase_rules.registry import get_game

    report = audit_game(args.game_id, envelopes, get_game)
    print(report.render())
    return {PASS: EXIT_OK, FAIL: EXIT_FAILED}.get(report.verdict, EXIT_UNFINISHED)


def _load_some(args) -> list | None:
    """The game's envelopes, or None after saying why there are none to show."""
    try:
        envelopes = _load(args)
    except (OSError, ValueError, ConnectionError) as error:
        print(f"could not read the stream: {error}", file=sys.stderr)
        return None
    if not envelopes:
        print(f"no events for game {args.game_id}", file=sys.stderr)
        return None
    return envelopes


def run_log(args) -> int:
    if (envelopes := _load_some(args)) is None:
        return EXIT_FAILED
    for envelope in envelopes:
        print(envelope_text(envelope))
    return EXIT_OK


def run_export(args) -> int:
    if (envelopes := _load_some(args)) is None:
        return EXIT_FAILED
    if getattr(args, "format", "jsonl") == "18xx":
        from starbase_cli.site18xx import run_export as export_18xx
        return export_18xx(args, envelopes)
    lines = "".join(export_line(envelope) for envelope in envelopes)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as file:
            file.write(lines)
    else:
        sys.stdout.write(lines)
    return EXIT_OK


def read_export(lines: Iterable[str]) -> list[Envelope]:
    envelopes = []
    for number, line in enumerate(lines, 1):
        if line.strip():
            try:
                envelopes.append(Envelope.model_validate_json(line))
            except ValueError as error:
                raise ValueError(f"line {number} is not an envelope: {error}") from None
    return envelopes


def _load(args) -> list[Envelope]:
    path = getattr(args, "file", None)
    if path == "-":
        return read_export(sys.stdin)
    if path:
        with open(path, encoding="utf-8") as file:
            return read_export(file)
    return asyncio.run(_read_live(args))


async def _read_live(args) -> list[Envelope]:
    from starbase_core.config import CoreSettings, from_env
    from starbase_core.connections import nats_auth
    from starbase_core.store_jetstream import JetStreamEventStore

    # The audit tool's own NATS user (read-only): NATS_NKEY_FILE and the TLS_* files, as the services.
    auth = nats_auth(from_env(CoreSettings).model_copy(update={"nats_url": args.nats_url}), "audit")
    store = await JetStreamEventStore.connect(args.nats_url, name=args.event_stream,
                                              subject_prefix=args.subject_prefix, ensure=False, attempts=3,
                                              auth=auth)
    try:
        if not await store.exists():
            raise ValueError(f"there is no event stream {args.event_stream} at {args.nats_url}")
        return await store.read(f"game.{args.game_id}")
    finally:
        await store.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="starbase")
    register(parser.add_subparsers(dest="command", required=True))
    from starbase_cli.main import run_handler

    return run_handler(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
