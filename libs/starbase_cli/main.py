"""`starbase`: play games with bots, run game scripts, audit, log and export game streams, make credentials."""
from __future__ import annotations

import argparse
import importlib
import sys

# Each module offers `register(subparsers)`; a module that is not installed is simply left out.
COMMAND_MODULES = ["starbase_cli.play", "starbase_cli.script", "starbase_cli.audit", "starbase_cli.load",
                   "starbase_cli.credentials"]


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
    args = build_parser().parse_args(argv)
    return int(args.handler(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
