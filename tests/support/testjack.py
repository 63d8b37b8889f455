"""Testjack: a tiny game for platform tests, with a chance draw and hidden information.

Each player is dealt one face-down card (1-10) that only they see. On their turn a player draws a card
(face down too) or stands; over 21 is a bust. When everyone has stood or bust, the highest total not over
21 wins. `Think` is a legal command that changes nothing (a command that produces no event).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Annotated, Literal, Union

from pydantic import Field, TypeAdapter, ValidationError

from starbase_rules.contract import Command, Event, Outcome, RuleViolation, Standing

LIMIT = 21


class Draw(Command):
    type: Literal["Draw"] = "Draw"
    v: int = 1


class Stand(Command):
    type: Literal["Stand"] = "Stand"
    v: int = 1


class Think(Command):
    type: Literal["Think"] = "Think"
    v: int = 1


class CardDealt(Event):
    type: Literal["CardDealt"] = "CardDealt"
    player: str
    card: int


class CardDrawn(Event):
    type: Literal["CardDrawn"] = "CardDrawn"
    player: str
    card: int


class Stood(Event):
    type: Literal["Stood"] = "Stood"
    player: str


class Bust(Event):
    type: Literal["Bust"] = "Bust"
    player: str


class PlayersSeated(Event):
    type: Literal["PlayersSeated"] = "PlayersSeated"
    players: list[str]


AnyCommand = TypeAdapter(Annotated[Union[Draw, Stand, Think], Field(discriminator="type")])
AnyEvent = TypeAdapter(Annotated[Union[PlayersSeated, CardDealt, CardDrawn, Stood, Bust],
                                 Field(discriminator="type")])
HIDDEN_CARDS = {"CardDealt", "CardDrawn"}


@dataclass
class State:
    players: list[str] = field(default_factory=list)
    hands: dict[str, list[int]] = field(default_factory=dict)
    done: list[str] = field(default_factory=list)       # stood or bust, in order
    busted: list[str] = field(default_factory=list)

    def total(self, player: str) -> int:
        return sum(self.hands.get(player, []))

    def current(self) -> str | None:
        waiting = [p for p in self.players if p not in self.done]
        return waiting[0] if waiting else None


class Testjack:
    name = "testjack"
    min_players = 1
    max_players = 4

    def initial_state(self) -> State:
        return State()

    def setup(self, players, options, rng):
        if options.get("refuse"):
            raise RuleViolation("BAD_OPTIONS", "this table refuses to start")
        return [PlayersSeated(players=list(players))] + [
            CardDealt(player=p, card=rng.randint(1, 10)) for p in players
        ]

    def parse_command(self, data):
        try:
            return AnyCommand.validate_python(data)
        except ValidationError as error:
            raise RuleViolation("MALFORMED_COMMAND", str(error).splitlines()[0]) from None

    def parse_event(self, data):
        return AnyEvent.validate_python(data)

    def decide(self, state, command, actor, rng):
        if state.current() is None:
            raise RuleViolation("GAME_OVER", "the game is over")
        if actor != state.current():
            raise RuleViolation("NOT_YOUR_TURN", f"it is {state.current()}'s turn, not {actor}'s")
        if isinstance(command, Think):
            return []
        if isinstance(command, Stand):
            return [Stood(player=actor)]
        card = rng.randint(1, 10)
        events: list[Event] = [CardDrawn(player=actor, card=card)]
        if state.total(actor) + card > LIMIT:
            events.append(Bust(player=actor))
        return events

    def evolve(self, state, event):
        if isinstance(event, PlayersSeated):
            state.players = list(event.players)
            state.hands = {p: [] for p in event.players}
        elif isinstance(event, (CardDealt, CardDrawn)):
            state.hands[event.player].append(event.card)
        elif isinstance(event, Stood):
            state.done.append(event.player)
        elif isinstance(event, Bust):
            state.done.append(event.player)
            state.busted.append(event.player)
        return state

    def view(self, state, viewer):
        return {
            "players": state.players,
            "to_act": state.current(),
            "cards": {p: len(state.hands[p]) for p in state.players},
            "done": state.done,
            "busted": state.busted,
            "my_hand": state.hands.get(viewer, []) if viewer else None,
        }

    def redact(self, event, viewer):
        shown = event.model_dump()
        if event.type in HIDDEN_CARDS and viewer != event.player:
            shown.pop("card")
        return shown

    def legal_actions(self, state, player):
        if player != state.current():
            return []
        return [{"type": "Draw"}, {"type": "Stand"}, {"type": "Think"}]

    def outcome(self, state):
        if not state.players or state.current() is not None:
            return None
        score = {p: (0 if p in state.busted else state.total(p)) for p in state.players}
        ranked = sorted(set(score.values()), reverse=True)
        return Outcome(standings=[Standing(player=p, rank=ranked.index(score[p]) + 1, score=score[p])
                                  for p in state.players], reason="everyone stood or bust")

    def to_act(self, state):
        current = state.current()
        return [current] if current else []

    def invariants(self, state):
        broken = [f"{p} holds a card outside 1-10" for p, cards in state.hands.items()
                  if any(not 1 <= c <= 10 for c in cards)]
        broken += [f"{p} bust at {state.total(p)}" for p in state.busted if state.total(p) <= LIMIT]
        return broken

    def bot_command(self, state, player, rnd: random.Random):
        return Draw() if state.total(player) < 15 or rnd.random() < 0.2 else Stand()

    def default_command(self, state, player):
        return Stand()


GAME = Testjack()
ENGINE_PATH = "tests.support.testjack:GAME"


def register() -> None:
    from starbase_rules import registry
    registry.ENGINES.setdefault("testjack", ENGINE_PATH)
