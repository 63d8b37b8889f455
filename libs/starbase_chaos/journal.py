"""What every client was told: the evidence the checker holds the store to.

One record per command or move *as the client last heard of it*:
- `acknowledged`: the server said it is stored, and named the seqs of its events;
- `refused`: the server said no (a 4xx, a rule's refusal on a socket): nothing may be stored;
- `unanswered`: no answer that settles it (timeouts, 5xx, a socket that died): it may or may not be
  stored, and either is fine, once.

`command_id` is the id the store keeps: for board games `<player id>:<client's id>` (the lobby's
prefix), for Trucker moves the `meta.request_id` `<player id>:<client's id>`. Any load tool can write
records (`Journal.record`, or JSON lines with the same fields, one file per worker) and hand them to
`starbase_chaos.checker.check`.
"""
from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

ACKNOWLEDGED, REFUSED, UNANSWERED = "acknowledged", "refused", "unanswered"
BOARD, TRUCKER = "board", "trucker"


@dataclass(frozen=True)
class Record:
    kind: str               # BOARD (through the lobby's HTTP API) or TRUCKER (its socket)
    game_id: str
    command_id: str
    outcome: str            # ACKNOWLEDGED, REFUSED or UNANSWERED
    seqs: tuple[int, ...] = ()
    code: str = ""          # the refusal's code
    at: float = field(default_factory=time.time)


class Journal:
    def __init__(self) -> None:
        self.records: list[Record] = []

    def record(self, kind: str, game_id: str, command_id: str, outcome: str, seqs=(), code: str = "") -> None:
        if outcome not in (ACKNOWLEDGED, REFUSED, UNANSWERED):
            raise ValueError(f"unknown outcome {outcome!r}")
        self.records.append(Record(kind, game_id, command_id, outcome, tuple(seqs), code))

    def command(self, game_id: str, command_id: str, outcome: str, seqs=(), code: str = "") -> None:
        """A board-game command (the hook `starbase_cli.loadgen.run_load(journal=...)` calls)."""
        self.record(BOARD, game_id, command_id, outcome, seqs, code)

    def of(self, outcome: str) -> list[Record]:
        return [r for r in self.records if r.outcome == outcome]

    def games(self) -> set[tuple[str, str]]:
        return {(r.kind, r.game_id) for r in self.records}

    def since(self, moment: float) -> list[Record]:
        return [r for r in self.records if r.at >= moment]

    def dump(self, path: str | Path) -> None:
        with open(path, "w") as out:
            for record in self.records:
                out.write(json.dumps(asdict(record)) + "\n")

    @classmethod
    def load(cls, *paths: str | Path) -> "Journal":
        journal = cls()
        for path in paths:
            for line in Path(path).read_text().splitlines():
                if line.strip():
                    data = json.loads(line)
                    journal.records.append(Record(**{**data, "seqs": tuple(data.get("seqs", ()))}))
        return journal
