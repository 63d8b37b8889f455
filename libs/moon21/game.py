"""`GAME`: 21Moon as a Starbase decider (see `starbase_rules.contract`)."""
from __future__ import annotations

import random

from moon21 import commands as K
from moon21 import events as E
from moon21.bots import bot_command
from moon21.checks import invariants
from moon21.decide import decide, to_act
from moon21.evolve import evolve
from moon21.legal import legal_actions
from moon21.options import table_options
from moon21.site18xx.setup import ORIGIN, setup_events
from moon21.rules import rules
from moon21.state import State
from moon21.view import view
from starbase_rules.contract import Outcome, RuleViolation, Standing


class Moon21:
    name = "moon21"
    min_players = 2
    max_players = 5

    def initial_state(self) -> State:
        return State()

    def setup(self, players: list[str], options: dict, rng) -> list:
        if not self.min_players <= len(players) <= self.max_players or len(set(players)) != len(players):
            raise RuleViolation("BAD_PLAYER_COUNT", "21Moon needs 2 to 5 distinct players")
        resolved = table_options(options)
        r = rules()
        seats = rng.shuffle(list(players))                     # turn order cards
        corps = list(r.corps)
        held_back = corps[rng.randbelow(len(corps))]            # the charter set aside
        cubes = [m["name"] for m in r["minerals"] for _ in range(m["count"])]
        cubes = rng.shuffle(cubes)                              # one cube per mineral hex
        minerals = dict(zip(r["mineral_hexes"], cubes))
        return [E.GameSetUp(players=seats, held_back=held_back, minerals=minerals,
                            starting_cash=r["starting_cash"][len(players)], options=resolved),
                E.RoundStarted(kind="ISR")]

    def imported_setup(self, players: list[str], options: dict, origin: dict) -> list:
        """The setup of a game imported from another site, re-derived from what its GameCreated records
        (`starbase_core.imported`): seats as listed, minerals and the held-back corporation from the
        site's seed as that site places them, or as a Starbase export recorded them."""
        if origin.get("site") != ORIGIN:
            raise RuleViolation("UNKNOWN_ORIGIN", f"21Moon imports games of {ORIGIN} only")
        return setup_events(list(players), table_options(options), origin)

    def parse_command(self, data: dict):
        return K.parse_command(data)

    def parse_event(self, data: dict):
        return E.parse_event(data)

    def decide(self, state: State, command, actor: str | None, rng=None) -> list:
        return decide(state, command, actor)

    def evolve(self, state: State, event) -> State:
        return evolve(state, event)

    def view(self, state: State, viewer: str | None) -> dict:
        return view(state)

    def redact(self, event, viewer: str | None) -> dict | None:
        return event.model_dump()           # 21Moon has no hidden information

    def legal_actions(self, state: State, player: str) -> list[dict]:
        return legal_actions(state, player)

    def outcome(self, state: State) -> Outcome | None:
        if state.final is None:
            return None
        return Outcome(standings=[Standing(**x) for x in state.final], reason=state.ended or "")

    def to_act(self, state: State) -> list[str]:
        return to_act(state)

    def invariants(self, state: State) -> list[str]:
        return invariants(state)

    def bot_command(self, state: State, player: str, rnd: random.Random):
        return bot_command(state, player, rnd)

    def default_command(self, state: State, player: str):
        """When a clock runs out: pass if that is legal, else the bot's deterministic choice."""
        if player not in to_act(state):
            return None
        if state.op is not None and state.op.deal:
            return K.AnswerDeal(accept=False)
        if state.op is not None and state.op.pending_un:
            return K.UseUnContract(action="none")
        try:
            decide(state, K.Pass(), player)
            return K.Pass()
        except RuleViolation:
            return bot_command(state, player, random.Random(0))


GAME = Moon21()
