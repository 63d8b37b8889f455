"""21Moon on the engine base: `GAME` implements `starbase_rules.contract.Game`.

The base applies the common guards (players, options, game over, not a player, unknown command) and
runs every decision on its scratchpad; this class adds what is 21Moon's own: the setup draws, whose
turn it is (NOT_YOUR_TURN), the automatic flow (`flow.advance`), the import of 18xx.games' games,
views, legal actions, the bots and the clock's default.
"""
from __future__ import annotations

import random

from moon21 import commands as K
from moon21 import events as E
from moon21 import decide as _decide  # noqa: F401  (registers the decide handlers)
from moon21 import evolve as _evolve  # noqa: F401  (registers the evolve handlers)
from moon21.board.geometry import mineral_cubes
from moon21.bots import LEVELS, bot_command
from moon21.checks import invariants
from moon21.decide import to_act
from moon21.flow import advance
from moon21.legal import legal_actions
from moon21.options import INFO, table_options
from moon21.probe import FirstEvent, Probe, settled_by_first_event
from moon21.rules import RULES, rules
from moon21.site18xx.setup import ORIGIN, setup_events
from moon21.state import State
from moon21.view import view
from starbase_rules.contract import Command, Outcome, RuleViolation, Standing
from starbase_rules.engine import Engine
from starbase_rules.scratch import Tx, refuse


class Moon21(Engine[State]):
    info = INFO
    rules = RULES
    plays_forced_moves = True     # `moon21.forced`: the flow passes for whoever can only pass (bot worker)

    def initial_state(self) -> State:
        return State()

    def begin(self, tx: Tx[State], players: list[str], options: dict) -> None:
        r = rules()
        seats = tx.rng.shuffle(list(players))                     # turn order cards
        corps = list(r.corps)
        held_back = corps[tx.rng.randbelow(len(corps))]            # the charter set aside
        cubes = tx.rng.shuffle(mineral_cubes())                    # one cube per mineral hex
        minerals = dict(zip(r["mineral_hexes"], cubes))
        tx.emit(E.GameSetUp(players=seats, held_back=held_back, minerals=minerals,
                            starting_cash=r["starting_cash"][len(players)], options=options))
        tx.emit(E.RoundStarted(kind="ISR"))

    def imported_setup(self, players: list[str], options: dict, origin: dict) -> list:
        """The setup of a game imported from another site, re-derived from what its GameCreated records
        (`starbase_core.imported`): seats as listed, minerals and the held-back corporation from the
        site's seed as that site places them, or as a Starbase export recorded them."""
        if origin.get("site") != ORIGIN:
            raise RuleViolation("UNKNOWN_ORIGIN", f"21Moon imports games of {ORIGIN} only")
        return setup_events(list(players), table_options(options), origin)

    def precheck(self, state: State, command: Command, actor: str) -> None:
        waiting = to_act(state)
        if actor not in waiting:
            refuse("NOT_YOUR_TURN", f"waiting for {', '.join(waiting) or 'nobody'}")

    def advance(self, tx: Tx[State]) -> None:
        advance(tx)

    def view(self, state: State, viewer: str | None) -> dict:
        return view(state)

    def legal_actions(self, state: State, player: str) -> list[dict]:
        return legal_actions(state, player, self._accepts)

    def _accepts(self, state: State, command: Command, actor: str, rng=None) -> None:
        """Refuses what `decide` refuses, without playing the automatic flow after an accepted command:
        that flow only plays what nobody decides and never refuses, and it was half the cost of
        `legal_actions` (tests/moon21/test_legal_actions.py checks the lists against `decide`).

        Most candidates are refused before their first event, so the decision is first probed on the
        caller's state itself (`probe.Probe`, which stops at the first event: nothing is changed) and
        the state is copied only for a candidate that gets that far."""
        self.precheck(state, command, actor)
        decider = self.rules.decider(command)
        probe = Probe(state)
        try:
            decider(probe, command, actor)
        except FirstEvent as first:
            if settled_by_first_event(command, first.event):
                return
            decider(self.tx(state), command, actor)

    def outcome(self, state: State) -> Outcome | None:
        if state.final is None:
            return None
        return Outcome(standings=[Standing(**x) for x in state.final], reason=state.ended or "")

    def to_act(self, state: State) -> list[str]:
        return to_act(state)

    def invariants(self, state: State) -> list[str]:
        return invariants(state)

    def bot_command(self, state: State, player: str, rnd: random.Random):
        """The bot's move. Its candidates are put to `_accepts` (what `decide` accepts, without the
        copy and the automatic flow an accepted command does not need): half of a bot's cost was
        deciding the candidates in full (tests/moon21/test_bot_acceptance.py compares the two)."""
        return bot_command(state, player, rnd, self._accepts)

    bot_levels = tuple(LEVELS)

    def level_command(self, state: State, player: str, rnd: random.Random, level: str):
        """The bot of a level (`moon21.bots.LEVELS`), for a bot seat."""
        return bot_command(state, player, rnd, self._accepts, level)

    def seat_state(self, state: State, player: str) -> State:
        """What a seat's bot may know: everything, 21Moon hides nothing (`view`)."""
        return state

    def default_command(self, state: State, player: str):
        """When a clock runs out: decline a deal, leave the UN Contract unused, pass if that is legal,
        else the bot's deterministic choice."""
        if player not in to_act(state):
            return None
        if state.op is not None and state.op.deal:
            return K.AnswerDeal(accept=False)
        if state.op is not None and state.op.pending_un:
            return K.UseUnContract(action="none")
        try:
            self.decide(state, K.Pass(), player)
            return K.Pass()
        except RuleViolation:
            return self.bot_command(state, player, random.Random(0))


GAME = Moon21()
