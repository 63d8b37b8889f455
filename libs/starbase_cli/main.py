"""`starbase`: play games with bots, run game scripts, audit, log and export game streams, administer
accounts, make credentials."""
from __future__ import annotations

import argparse
import importlib
import os
import sys

# Each module offers `register(subparsers)`; a module that is not installed is simply left out.
COMMAND_MODULES = ["starbase_cli.play", "starbase_cli.script", "starbase_cli.audit", "starbase_cli.load",
                   "starbase_cli.admin", "starbase_cli.credentials", "starbase_cli.site18xx"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="starbase", description=__doc__)
    subparsers = parser.add_subparsers(dest="command", required=True)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as missing:
            if missing.name != name:
                raise
            continue
        module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    return run_handler(build_parser().parse_args(argv))


def run_handler(args: argparse.Namespace) -> int:
    """Run a command's handler. A reader that stops reading (`starbase log GAME | head`) ends the
    command quietly, as it would a Unix tool: no traceback, exit 0."""
    try:
        code = int(args.handler(args) or 0)
        sys.stdout.flush()          # inside the try: what is still buffered may meet the closed pipe
        return code
    except BrokenPipeError:
        # Python flushes stdout again at exit; point it at /dev/null so that flush cannot fail too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
