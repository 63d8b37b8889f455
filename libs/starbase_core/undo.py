"""What may be taken back: the recent commands of a game, folded from its stream (`UndoLog`).

An undo takes back a player's own last command(s) (a *step* is one command and the forced moves the
platform played right after it) while
- no other seat's command came after them (`UNDO_OTHERS_ACTED`; a clock's or a bot's move counts as
  another's, a no-effect command does not),
- none of them drew at random (the draw counter moved: `UNDO_AFTER_DRAW`),
- none of their events hid anything from any viewer (`engine.redact` differs from the whole event for
  some player or a spectator: `UNDO_REVEALED`),
and nothing happened since that closes the past: a resignation or a substitution (`UNDO_NOTHING`).
The log keeps the last `UNDO_STEPS` steps (older ones can no longer be undone).

The undo is itself an event, `CommandsUndone {player, first_seq, last_seq, steps}`, appended to the
stream: the engine events of seqs first..last are no longer part of the game, so the state is the fold
of the stream without them (`GameRecord.apply` skips them; a record that already folded them cannot
unfold them and raises `RefoldNeeded`: rebuild it from the stream). Nothing is ever deleted.

In a rated game the other people at the table must agree: `Undo` records `UndoRequested` (awaiting
each other seat held by a person; bots agree), each answers `AgreeUndo` (`UndoAgreed`; the last one's
command also appends `CommandsUndone`) or `RefuseUndo` (`UndoRefused`: the same commands may not be
asked for again, `UNDO_NOT_AGREED`). Any game command lapses a pending request.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from starbase_core.envelope import Envelope

UNDO_STEPS = 32

UNDO_REQUESTED = "UndoRequested"
UNDO_AGREED = "UndoAgreed"
UNDO_REFUSED = "UndoRefused"
COMMANDS_UNDONE = "CommandsUndone"
PLAYER_RESIGNED = "PlayerResigned"
SEAT_TAKEN = "SeatTaken"
UNDO_TYPES = frozenset({UNDO_REQUESTED, UNDO_AGREED, UNDO_REFUSED, COMMANDS_UNDONE})
SEAT_TYPES = frozenset({PLAYER_RESIGNED, SEAT_TAKEN})


class RefoldNeeded(Exception):
    """An undo takes back events this record has already folded: rebuild it from the stream."""


@dataclass
class UndoLog:
    steps: list[dict] = field(default_factory=list)     # oldest first; see `_step`
    pending: dict | None = None                          # UndoRequested's data, `awaiting` kept current
    refused: list[list[int]] = field(default_factory=list)   # [first, last] ranges the others refused

    def observe(self, envelope: Envelope, draw_before: int, engine_event: bool) -> None:
        """Fold one envelope (after the record noted it); `draw_before` is the counter before it."""
        kind = envelope.type if not engine_event else None
        if kind in SEAT_TYPES:
            self.steps.clear()
            self.pending = None
        elif kind in UNDO_TYPES:
            self._answer(envelope)
        elif "command" in envelope.meta:
            self._command(envelope, draw_before, engine_event)
        elif self.steps and envelope.command_id in self.steps[-1]["commands"]:
            self._extend(self.steps[-1], envelope, engine_event)

    def _command(self, envelope: Envelope, draw_before: int, engine_event: bool) -> None:
        played_by = envelope.meta.get("played_by")
        if not engine_event:                 # CommandHadNoEffect: nobody has acted
            return
        self.pending = None                  # the game moved: a request lapses
        if played_by == "platform" and self.steps:
            self.steps[-1]["commands"].append(envelope.command_id)
            self._extend(self.steps[-1], envelope, engine_event)
            return
        self.steps.append(_step(envelope, draw_before))
        del self.steps[:-UNDO_STEPS]

    @staticmethod
    def _extend(step: dict, envelope: Envelope, engine_event: bool) -> None:
        step["last_seq"] = envelope.seq
        step["draw_after"] = envelope.meta.get("draw_end", step["draw_after"])
        if engine_event:
            step["events"].append(envelope.data)

    def _answer(self, envelope: Envelope) -> None:
        data = envelope.data
        if envelope.type == UNDO_REQUESTED:
            self.pending = {**data, "awaiting": list(data["awaiting"])}
        elif envelope.type == UNDO_AGREED and self.pending is not None:
            self.pending["awaiting"] = [p for p in self.pending["awaiting"] if p != data["player"]]
        elif envelope.type == UNDO_REFUSED:
            if self.pending is not None:
                self.refused.append([self.pending["first_seq"], self.pending["last_seq"]])
            self.pending = None
        elif envelope.type == COMMANDS_UNDONE:
            self.steps = [s for s in self.steps if s["last_seq"] < data["first_seq"]]
            self.pending = None

    def takeable(self, owner: str, count: int) -> tuple[list[dict], str | None]:
        """The last `count` steps if they are all `owner`'s, else the refusal's code."""
        if not any(step["owner"] == owner for step in self.steps):
            return [], "UNDO_NOTHING"
        chosen = self.steps[-count:]
        if any(step["owner"] != owner for step in chosen):
            return [], "UNDO_OTHERS_ACTED"
        if len(chosen) < count:
            return [], "UNDO_NOTHING"
        return chosen, None

    def as_plain(self) -> dict:
        return {"steps": [dict(s, commands=list(s["commands"]), events=list(s["events"])) for s in self.steps],
                "pending": None if self.pending is None else dict(self.pending),
                "refused": [list(r) for r in self.refused]}

    @classmethod
    def from_plain(cls, data: dict) -> "UndoLog":
        return cls(list(data["steps"]), data["pending"], [list(r) for r in data["refused"]])


def owner_of(actor: str | None, played_by: str | None) -> str:
    """Whose command it was: the seat and, when not its own player, who played it."""
    return f"{actor}" if played_by is None or played_by == actor else f"{actor}|{played_by}"


def _step(envelope: Envelope, draw_before: int) -> dict:
    return {"owner": owner_of(envelope.actor, envelope.meta.get("played_by")), "actor": envelope.actor,
            "commands": [envelope.command_id], "first_seq": envelope.seq, "last_seq": envelope.seq,
            "draw_before": draw_before, "draw_after": envelope.meta.get("draw_end", draw_before),
            "events": [envelope.data]}


def undone_ranges(envelopes: Iterable[Envelope]) -> list[tuple[int, int]]:
    """The (first, last) seqs taken back by the platform's CommandsUndone among `envelopes`."""
    return [(e.data["first_seq"], e.data["last_seq"]) for e in envelopes
            if e.type == COMMANDS_UNDONE and e.meta.get("platform") is True]


def within(seq: int, ranges: list[tuple[int, int]]) -> bool:
    return any(first <= seq <= last for first, last in ranges)
