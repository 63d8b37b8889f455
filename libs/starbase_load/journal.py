"""Each load process's journal: every answer its players got, in the chaos checker's format.

One JSON line per command or move as the client last heard of it, with the fields of
`starbase_chaos.journal.Record` (kind, game_id, command_id, outcome, seqs, code, at), so
`starbase_chaos.journal.Journal.load(*files)` reads them and `starbase_chaos.checker.check` holds the
store to them. A line is written (and flushed) the moment the answer arrives, before anything else
can run, so a process stopped at any moment leaves every answer it received on disk.

In a distributed run each worker also keeps the lines it has not yet sent to the master (`unsent`):
the master writes what it receives into `received-<worker>.jsonl` and checks those, so the check needs
no shared disk between machines (`coordination`).
"""
from __future__ import annotations

import json
import os
from dataclasses import asdict
from pathlib import Path

from starbase_chaos.journal import ACKNOWLEDGED, BOARD, REFUSED, TRUCKER, UNANSWERED, Record

__all__ = ["ACKNOWLEDGED", "BOARD", "REFUSED", "TRUCKER", "UNANSWERED", "JournalFile", "ReceivedJournals"]


class JournalFile:
    def __init__(self, path: str | os.PathLike, keep_unsent: bool = False):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._out = open(self.path, "a", encoding="utf-8")
        self.keep_unsent = keep_unsent
        self.unsent: list[dict] = []
        self.count = 0

    def record(self, kind: str, game_id: str, command_id: str, outcome: str, seqs=(), code: str = "") -> None:
        if outcome not in (ACKNOWLEDGED, REFUSED, UNANSWERED):
            raise ValueError(f"unknown outcome {outcome!r}")
        line = asdict(Record(kind, game_id, command_id, outcome, tuple(seqs), code))
        self._out.write(json.dumps(line) + "\n")
        self._out.flush()
        self.count += 1
        if self.keep_unsent:
            self.unsent.append(line)

    def take_unsent(self) -> list[dict]:
        taken, self.unsent = self.unsent, []
        return taken

    def close(self) -> None:
        self._out.close()


class ReceivedJournals:
    """The master's copies of its workers' journals, one file per worker."""

    def __init__(self, directory: str | os.PathLike):
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)

    def path(self, worker: str) -> Path:
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in worker)[:120]
        return self.directory / f"received-{safe}.jsonl"

    def add(self, worker: str, lines: list[dict]) -> None:
        with open(self.path(worker), "a", encoding="utf-8") as out:
            out.writelines(json.dumps(line) + "\n" for line in lines)

    def files(self) -> list[Path]:
        return sorted(self.directory.glob("received-*.jsonl"))
