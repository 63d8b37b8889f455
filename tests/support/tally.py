"""Tally: a tiny game for the platform's seat, undo and forced-move tests.

Players take turns in seat order; on their turn a player may `Add` 1 to 3 points (and keep the turn),
`Roll` a die (a draw: 1-6 points), `Peek` at their face-down card (dealt at setup, hidden from the
others: the peek shows it to them alone), `EndTurn`, or `Fold`: from then on their only legal action
on their turn is `Pass` (a forced move). After `rounds` rounds (option, default 3), or once everyone has
folded, the highest score wins (ties share a rank).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Annotated, Literal, Union

from pydantic import Field, TypeAdapter

from starbase_rules.contract import Command, Event, Outcome, RuleViolation, parse_command


class Add(Command):
    type: Literal["Add"] = "Add"
    points: int = Field(ge=1, le=3)


class Roll(Command):
    type: Literal["Roll"] = "Roll"


class Peek(Command):
    type: Literal["Peek"] = "Peek"


class EndTurn(Command):
    type: Literal["EndTurn"] = "EndTurn"


class Fold(Command):
    type: Literal["Fold"] = "Fold"


class Pass(Command):
    type: Literal["Pass"] = "Pass"


class Seated(Event):
    type: Literal["Seated"] = "Seated"
    players: list[str]
    rounds: int


class CardDealt(Event):
    type: Literal["CardDealt"] = "CardDealt"
    player: str
    card: int


class Added(Event):
    type: Literal["Added"] = "Added"
    player: str
    points: int


class Peeked(Event):
    type: Literal["Peeked"] = "Peeked"
    player: str
    card: int


class TurnEnded(Event):
    type: Literal["TurnEnded"] = "TurnEnded"
    player: str


class Folded(Event):
    type: Literal["Folded"] = "Folded"
    player: str


COMMANDS = TypeAdapter(Annotated[Union[Add, Roll, Peek, EndTurn, Fold, Pass], Field(discriminator="type")])
EVENTS = TypeAdapter(Annotated[Union[Seated, CardDealt, Added, Peeked, TurnEnded, Folded], Field(discriminator="type")])
SECRET = {"CardDealt", "Peeked"}


@dataclass
class State:
    players: list[str] = field(default_factory=list)
    rounds: int = 3
    turn: int = 0                   # turns ended so far
    scores: dict[str, int] = field(default_factory=dict)
    cards: dict[str, int] = field(default_factory=dict)
    folded: list[str] = field(default_factory=list)

    @property
    def over(self) -> bool:
        return bool(self.players) and (self.turn >= self.rounds * len(self.players)
                                       or len(self.folded) == len(self.players))

    def current(self) -> str | None:
        return None if self.over or not self.players else self.players[self.turn % len(self.players)]


class Tally:
    name = "tally"
    min_players = 1
    max_players = 4

    def initial_state(self) -> State:
        return State()

    def setup(self, players, options, rng):
        unknown = set(options) - {"rounds"}
        if unknown:
            raise RuleViolation("UNKNOWN_OPTION", f"tally has no option {sorted(unknown)[0]!r}")
        return [Seated(players=list(players), rounds=int(options.get("rounds", 3)))] + [
            CardDealt(player=p, card=rng.randint(1, 9)) for p in players]

    def parse_command(self, data):
        return parse_command(COMMANDS, data)

    def parse_event(self, data):
        return EVENTS.validate_python(data)

    def decide(self, state, command, actor, rng):
        if state.over:
            raise RuleViolation("GAME_OVER", "the game is over")
        if actor != state.current():
            raise RuleViolation("NOT_YOUR_TURN", f"it is {state.current()}'s turn")
        if actor in state.folded:
            if not isinstance(command, Pass):
                raise RuleViolation("FOLDED", "you folded: you may only pass")
            return [TurnEnded(player=actor)]
        match command:
            case Add(points=points):
                return [Added(player=actor, points=points)]
            case Roll():
                return [Added(player=actor, points=rng.randint(1, 6))]
            case Peek():
                return [Peeked(player=actor, card=state.cards[actor])]
            case EndTurn():
                return [TurnEnded(player=actor)]
            case Fold():
                return [Folded(player=actor), TurnEnded(player=actor)]
        raise RuleViolation("NOT_NOW", "only a folded player passes")

    def evolve(self, state, event):
        match event:
            case Seated():
                state.players, state.rounds = list(event.players), event.rounds
                state.scores = {p: 0 for p in event.players}
            case CardDealt():
                state.cards[event.player] = event.card
            case Added():
                state.scores[event.player] += event.points
            case TurnEnded():
                state.turn += 1
            case Folded():
                state.folded.append(event.player)
        return state

    def view(self, state, viewer):
        return {"players": state.players, "to_act": state.current(), "scores": state.scores,
                "turn": state.turn, "folded": state.folded,
                "my_card": state.cards.get(viewer) if viewer else None}

    def redact(self, event, viewer):
        shown = event.model_dump(mode="json")
        if event.type in SECRET and viewer != shown["player"]:
            shown.pop("card")
        return shown

    def legal_actions(self, state, player):
        if player != state.current():
            return []
        if player in state.folded:
            return [{"type": "Pass"}]
        return [{"type": "Add", "points": n} for n in (1, 2, 3)] + [
            {"type": "Roll"}, {"type": "Peek"}, {"type": "EndTurn"}, {"type": "Fold"}]

    def outcome(self, state):
        if not state.over:
            return None
        return Outcome.ranked({p: float(state.scores[p]) for p in state.players}, reason="the rounds are over")

    def to_act(self, state):
        current = state.current()
        return [current] if current else []

    def invariants(self, state):
        return [f"{p} has a negative score" for p, score in state.scores.items() if score < 0]

    def bot_command(self, state, player, rnd: random.Random):
        if player in state.folded:
            return Pass()
        return Add(points=rnd.randint(1, 3)) if rnd.random() < 0.5 else EndTurn()

    def default_command(self, state, player):
        return Pass() if player in state.folded else EndTurn()


class LyingTally(Tally):
    """Tally whose legal actions offer `Add 3`, which it then refuses: an engine's bug the bot worker
    must survive (it leaves a refused move out and chooses again)."""
    name = "lying_tally"

    def decide(self, state, command, actor, rng):
        if isinstance(command, Add) and command.points == 3:
            raise RuleViolation("NOT_NOW", "three points are listed but never allowed")
        return super().decide(state, command, actor, rng)

    def legal_actions(self, state, player):
        listed = super().legal_actions(state, player)
        return [a for a in listed if a in ({"type": "Add", "points": 3}, {"type": "EndTurn"})] or listed

    def bot_command(self, state, player, rnd: random.Random):
        """Its own bot (for suites that play every registered engine) keeps to what it allows."""
        return Pass() if player in state.folded else EndTurn()


GAME = Tally()
LYING = LyingTally()
ENGINE_PATH = "tests.support.tally:GAME"


def register() -> None:
    from starbase_rules import registry
    registry.ENGINES.setdefault("tally", ENGINE_PATH)
    registry.ENGINES.setdefault("lying_tally", "tests.support.tally:LYING")
