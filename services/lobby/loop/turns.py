"""Who owes a decision in which game, since when: a pure rule and this replica's in-memory index.

A player owes a decision from the envelope after which the engine first lists them in `to_act` until
they are no longer listed or they act themselves (an envelope of theirs that changed the game starts a
new decision; a `CommandHadNoEffect` does not): the decision clock's rule (docs/clock.md), so the
`due_at` shown here is the deadline the clock applies. `next_turn` applies it to what happened between
two known positions; `TurnIndex` keeps the latest `Turn` of every running game and, per player, the
games where they owe a decision, so "my games" and the pushes never scan every game.

When positions are learnt one command apart (the usual case) this is exactly the clock's rule: one
command's envelopes are appended together and carry one server time. When several commands land
between two looks, a newly owed decision is dated from the first of them (at most a command early).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Callable

from starbase_core.gamestream import NO_EFFECT
from starbase_core.pause import PAUSE_TYPES
from starbase_core.timecontrol import TimeControl

MAX_DECISION_SECONDS = 30 * 24 * 3600       # the lobby's own bound on the option (lobby.options)


@dataclass(frozen=True)
class Owed:
    since_seq: int                  # the envelope after which the decision was owed
    since: str                      # that envelope's server time (ISO 8601, UTC)


@dataclass(frozen=True)
class Step:
    """What the rule needs of one envelope."""
    seq: int
    time: str
    actor: str | None
    acted: bool                     # the actor changed the game (not a CommandHadNoEffect)

    @classmethod
    def of(cls, envelope) -> "Step":
        # Asking for a pause (or answering) is not acting: the decision owed runs on (the clock's rule).
        return cls(envelope.seq, envelope.time, envelope.actor,
                   envelope.type != NO_EFFECT and envelope.type not in PAUSE_TYPES)


@dataclass(frozen=True)
class Turn:
    game_id: str
    seq: int
    owed: dict[str, Owed] = field(default_factory=dict)
    ended: bool = False

    def as_json(self) -> dict:
        return {"seq": self.seq, "ended": self.ended,
                "owed": {player: [o.since_seq, o.since] for player, o in self.owed.items()}}

    @classmethod
    def from_json(cls, game_id: str, data: dict) -> "Turn":
        return cls(game_id, int(data["seq"]), {p: Owed(int(s), str(t)) for p, (s, t) in data["owed"].items()},
                   bool(data.get("ended")))


def next_turn(previous: Turn | None, game_id: str, seq: int, to_act: list[str], ended: bool,
              between: list[Step]) -> Turn:
    """The turn at `seq`, from the one before and the envelopes after it up to `seq` (`between`, in
    order, ending at `seq`)."""
    if ended:
        return Turn(game_id, seq, {}, True)
    owed: dict[str, Owed] = {}
    first = between[0] if between else None
    for player in to_act:
        own = [step for step in between if step.actor == player and step.acted]
        held = previous.owed.get(player) if previous is not None else None
        if own:
            owed[player] = Owed(own[-1].seq, own[-1].time)
        elif held is not None:
            owed[player] = held
        elif first is not None:
            owed[player] = Owed(first.seq, first.time)
    return Turn(game_id, seq, owed, False)


def decision_limit(options: dict, default_seconds: float = 0.0) -> float | None:
    """The table's per-decision limit (`decision_seconds` or `days_per_move`, or the clock service's
    `default_seconds` for a table without time controls) when that alone decides when a decision is
    due; None when there is none, or when a time bank may end it sooner (then only the clock's fold of
    the banks knows: the view's `clock.due_at`)."""
    control = TimeControl.of(options, default_seconds)
    if control is None or control.bank is not None or control.limit is None:
        return None
    return min(control.limit, MAX_DECISION_SECONDS)


def due_at(owed: Owed | None, options: dict, default_seconds: float = 0.0) -> str | None:
    """When the clock plays the default for this decision: owed since + the table's limit."""
    limit = decision_limit(options, default_seconds)
    if owed is None or limit is None:
        return None
    since = datetime.fromisoformat(owed.since.replace("Z", "+00:00"))
    deadline = since.astimezone(timezone.utc) + timedelta(seconds=limit)
    return deadline.isoformat(timespec="microseconds").replace("+00:00", "Z")


Listener = Callable[[Turn, set[str]], None]


class TurnIndex:
    """The latest turn of every running game this replica knows, and per player where they owe."""

    def __init__(self) -> None:
        self.games: dict[str, Turn] = {}
        self._owing: dict[str, set[str]] = defaultdict(set)     # player → game ids
        self.listeners: list[Listener] = []

    def get(self, game_id: str) -> Turn | None:
        return self.games.get(game_id)

    def owed(self, game_id: str, player: str | None) -> Owed | None:
        turn = self.games.get(game_id)
        return turn.owed.get(player) if turn is not None and player is not None else None

    def owing(self, player: str) -> set[str]:
        return set(self._owing.get(player, ()))

    def adopt(self, turn: Turn) -> bool:
        """Take a newer turn of its game (an older or equal one changes nothing); tell the listeners
        which players newly owe a decision."""
        before = self.games.get(turn.game_id)
        if before is not None and turn.seq <= before.seq:
            return False
        old = before.owed if before is not None else {}
        for player in old.keys() - turn.owed.keys():
            self._owing[player].discard(turn.game_id)
            if not self._owing[player]:
                del self._owing[player]
        for player in turn.owed:
            self._owing[player].add(turn.game_id)
        if turn.ended:
            self.games.pop(turn.game_id, None)
        else:
            self.games[turn.game_id] = turn
        fresh = {player for player, owed in turn.owed.items() if old.get(player) != owed}
        for listener in self.listeners:
            listener(turn, fresh)
        return True
