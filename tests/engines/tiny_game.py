"""Tiny Counters: the smallest complete game on the engine base, and the example of docs/adding-a-game.md.

Players take 1 to `max_take` counters in turn from one pile. Each player was dealt a secret lucky
number: taking exactly that many scores a point. Taking the last counter scores `bonus` points (or
costs them, with `last_counter="loses"`). Most points wins; the lucky numbers are shown at the end.

It has every part a real game has: declared options, chance recorded in an event (the first player,
the lucky numbers), a secret only its owner sees, refusals, legal actions, a bot, an automatic step
after a command (the reveal), and one event shape that changed (v1 → v2, upcast on read).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import ClassVar, Literal

from starbase_rules import (
    OWN_ENTRY, Command, Engine, Event, GameInfo, Outcome, Rules, Tx, option, options_of, refuse,
)

# -- options: declared once, as a dataclass -----------------------------------------------------------


@dataclass
class Options:
    counters: int = option(15, "counters in the pile at the start", minimum=5, maximum=60)
    max_take: int = option(3, "most counters one turn may take", minimum=2, maximum=5)
    last_counter: str = option("scores", "taking the last counter scores or costs the bonus",
                               choices=("scores", "loses"))
    bonus: int = option(2, "points for taking the last counter", minimum=0, maximum=5)
    reveal_luck: bool = option(True, "show everyone's lucky number when the game ends")


INFO = GameInfo(name="tiny", title="Tiny Counters", min_players=2, max_players=4, options=options_of(Options),
                round_field="round", over="over", timeout_preference=("Take",))
RULES = Rules()

# -- commands (imperative) and events (past tense) ----------------------------------------------------


class Take(Command):
    type: Literal["Take"] = "Take"
    count: int


class GameSetUp(Event):
    secret_fields: ClassVar[dict[str, str]] = {"lucky": OWN_ENTRY}      # each player sees only its own
    type: Literal["GameSetUp"] = "GameSetUp"
    v: int = 2                     # v1 had `counters` instead of `options`, and no lucky numbers
    players: list[str]
    options: dict
    first: int                     # seat of the first player (drawn)
    lucky: dict[str, int]          # player -> lucky number (drawn; 0 = none)


class Taken(Event):
    type: Literal["Taken"] = "Taken"
    v: int = 2                     # v1 had no `scored`
    player: str
    count: int
    scored: bool                   # decided when taken, so evolve (and every viewer) need no secret


class LuckRevealed(Event):
    type: Literal["LuckRevealed"] = "LuckRevealed"
    lucky: dict[str, int]


@RULES.upcasts("GameSetUp", 1)
def _setup_v1(data: dict) -> dict:
    # v1 games had no options and no lucky numbers; the last counter won: bonus 1, nothing else scores.
    options = {"counters": data.pop("counters"), "max_take": 3, "last_counter": "scores", "bonus": 1,
               "reveal_luck": False}
    return {**data, "options": options, "lucky": {player: 0 for player in data["players"]}}


@RULES.upcasts("Taken", 1)
def _taken_v1(data: dict) -> dict:
    return {**data, "scored": False}


# -- state, and one evolve handler per event ------------------------------------------------------------


@dataclass
class State:
    players: list[str] = field(default_factory=list)
    options: Options = field(default_factory=Options)
    left: int = 0
    turn: int = 0
    lucky: dict[str, int] = field(default_factory=dict)
    points: dict[str, int] = field(default_factory=dict)
    last_taker: str | None = None
    revealed: bool = False
    round: str = "setup"                              # setup | playing | over

    @property
    def player_to_move(self) -> str:
        return self.players[self.turn]


@RULES.evolves(GameSetUp)
def _set_up(s: State, e: GameSetUp) -> None:
    s.players, s.options, s.turn = list(e.players), Options(**e.options), e.first
    s.left, s.lucky = s.options.counters, dict(e.lucky)
    s.points, s.round = {p: 0 for p in e.players}, "playing"


@RULES.evolves(Taken)
def _taken(s: State, e: Taken) -> None:
    s.left -= e.count
    s.points[e.player] += 1 if e.scored else 0
    s.turn = (s.turn + 1) % len(s.players)
    if s.left == 0:
        sign = 1 if s.options.last_counter == "scores" else -1
        s.points[e.player] += sign * s.options.bonus
        s.last_taker, s.round = e.player, "over"


@RULES.evolves(LuckRevealed)
def _revealed(s: State, e: LuckRevealed) -> None:
    s.lucky, s.revealed = dict(e.lucky), True        # from the public event, not from the secret deal


# -- decide: one handler per command, on the base's scratchpad ----------------------------------------


@RULES.decides(Take)
def take(tx: Tx[State], command: Take, actor: str) -> None:
    s = tx.state
    if actor != s.player_to_move:
        refuse("NOT_YOUR_TURN", f"it is {s.player_to_move}'s turn")
    most = min(s.options.max_take, s.left)
    if not 1 <= command.count <= most:
        refuse("ILLEGAL_COUNT", f"take 1 to {most} counters")
    tx.emit(Taken(player=actor, count=command.count, scored=command.count == s.lucky[actor]))


class TinyCounters(Engine[State]):
    info = INFO
    rules = RULES

    def initial_state(self) -> State:
        return State()

    def begin(self, tx: Tx[State], players: list[str], options: dict) -> None:
        first = tx.rng.randbelow(len(players))
        lucky = {p: 1 + tx.rng.randbelow(options["max_take"]) for p in players}
        tx.emit(GameSetUp(players=players, options=options, first=first, lucky=lucky))

    def advance(self, tx: Tx[State]) -> None:
        s = tx.state
        if s.round == "over" and s.options.reveal_luck and not s.revealed:
            tx.emit(LuckRevealed(lucky=dict(s.lucky)))

    def view(self, state: State, viewer: str | None) -> dict:
        shown = state.lucky if state.revealed else {p: n for p, n in state.lucky.items() if p == viewer}
        return {"players": list(state.players), "left": state.left, "max_take": state.options.max_take,
                "to_move": None if state.round == "over" else state.player_to_move,
                "points": dict(state.points), "lucky": shown, "round": state.round}

    def outcome(self, state: State) -> Outcome | None:
        if state.round != "over":
            return None
        return Outcome.ranked({p: float(n) for p, n in state.points.items()},
                              reason=f"{state.last_taker} took the last counter")

    def legal_actions(self, state: State, player: str) -> list[dict]:
        if state.round != "playing" or player != state.player_to_move:
            return []
        return [{"type": "Take", "count": n} for n in range(1, min(state.options.max_take, state.left) + 1)]

    def bot_command(self, state: State, player: str, rnd: random.Random) -> Command | None:
        actions = self.legal_actions(state, player)
        lucky = [a for a in actions if a["count"] == state.lucky.get(player)]
        return self.parse_command(lucky[0] if lucky and rnd.random() < 0.8 else rnd.choice(actions)) \
            if actions else None

    def invariants(self, state: State) -> list[str]:
        problems = []
        if not 0 <= state.left <= state.options.counters:
            problems.append(f"{state.left} counters left of {state.options.counters}")
        if (state.left == 0) != (state.round == "over") and state.round != "setup":
            problems.append("the game ends exactly when the pile is empty")
        return problems


GAME = TinyCounters()
ENGINE_PATH = "tests.engines.tiny_game:GAME"
