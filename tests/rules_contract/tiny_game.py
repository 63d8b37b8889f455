"""A tiny complete game for contract tests: take 1–3 counters in turn; whoever takes the last wins.
The first player is drawn with chance, so the setup event records a draw."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Union

from pydantic import TypeAdapter, ValidationError

from starbase_rules import Command, Event, Outcome, RuleViolation, Standing


class Take(Command):
    type: Literal["Take"] = "Take"
    count: int


class GameSetUp(Event):
    type: Literal["GameSetUp"] = "GameSetUp"
    players: list[str]
    counters: int
    first: int


class Taken(Event):
    type: Literal["Taken"] = "Taken"
    player: str
    count: int


AnyEvent = TypeAdapter(Union[GameSetUp, Taken])


@dataclass
class State:
    players: list[str] = field(default_factory=list)
    counters: int = 0
    turn: int = 0
    winner: str | None = None


class TinyGame:
    name = "tiny"
    min_players, max_players = 2, 4

    def initial_state(self):
        return State()

    def setup(self, players, options, rng):
        return [GameSetUp(players=list(players), counters=int(options.get("counters", 10)),
                          first=rng.randbelow(len(players)))]

    def parse_command(self, data):
        try:
            return Take.model_validate(data)
        except ValidationError as problem:
            raise RuleViolation("MALFORMED_COMMAND", str(problem)) from None

    def parse_event(self, data):
        return AnyEvent.validate_python(data)

    def decide(self, state, command, actor, rng):
        if state.winner:
            raise RuleViolation("GAME_OVER", "the game is over")
        if actor != state.players[state.turn]:
            raise RuleViolation("NOT_YOUR_TURN", f"it is {state.players[state.turn]}'s turn")
        if not 1 <= command.count <= min(3, state.counters):
            raise RuleViolation("ILLEGAL_COUNT", "take 1 to 3 counters, no more than are left")
        return [Taken(player=actor, count=command.count)]

    def evolve(self, state, event):
        if isinstance(event, GameSetUp):
            state.players, state.counters, state.turn = event.players, event.counters, event.first
        else:
            state.counters -= event.count
            if state.counters == 0:
                state.winner = event.player
            state.turn = (state.turn + 1) % len(state.players)
        return state

    def view(self, state, viewer):
        return {"counters": state.counters, "turn": state.players[state.turn]}

    def redact(self, event, viewer):
        return event.model_dump()

    def legal_actions(self, state, player):
        if state.winner or player != state.players[state.turn]:
            return []
        return [{"type": "Take", "count": n} for n in range(1, min(3, state.counters) + 1)]

    def outcome(self, state):
        if not state.winner:
            return None
        return Outcome(standings=[Standing(player=p, rank=1 if p == state.winner else 2,
                                           score=1 if p == state.winner else 0) for p in state.players],
                       reason=f"{state.winner} took the last counter")

    def to_act(self, state):
        return [] if state.winner else [state.players[state.turn]]

    def invariants(self, state):
        return [] if state.counters >= 0 else ["negative counters"]

    def bot_command(self, state, player, rnd):
        actions = self.legal_actions(state, player)
        return Take(**rnd.choice(actions)) if actions else None

    def default_command(self, state, player):
        return Take(count=1) if self.legal_actions(state, player) else None


GAME = TinyGame()
