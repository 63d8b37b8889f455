"""2038: Tycoons of the Asteroid Belt on the engine base: `GAME` implements `starbase_rules.contract.Game`.

The base applies the common guards (players, options, game over, not a player, unknown command) and runs
every decision on its scratchpad; this class adds what is 2038's own: the seating draw, whose turn it
is, the automatic flow after a command (the next operator), views, legal actions, the bots. Who plays
each command is in `plays.py` (the round's steps), how each event changes the state in `evolve.py`.
"""
from __future__ import annotations

import random
from dataclasses import asdict, replace

from starbase_rules.contract import Outcome
from starbase_rules.engine import Engine
from starbase_rules.info import GameInfo, options_of
from starbase_rules.scratch import Tx, refuse
from t2038 import evolve, flow, plays, stock  # noqa: F401  (evolve and plays register the handlers)
from t2038 import events as ev
from t2038.invariants import broken_invariants
from t2038.options import TableOptions, option_problems
from t2038.rules import RULES
from t2038.state import State
from t2038.tables import entities

INFO = GameInfo(
    name="t2038", title="2038", min_players=2, max_players=6,     # 2 only with the two_player option
    options=options_of(TableOptions), round_field="round", over="over",
    # A player whose clock runs out: see `bots.default_command` (the least committal accepted move).
)


class T2038(Engine[State]):
    info = INFO
    rules = RULES

    def initial_state(self) -> State:
        return State()

    def option_problems(self, options: dict, players: list[str]) -> list[str]:
        return option_problems(options, players)

    def begin(self, tx: Tx[State], players: list[str], options: dict) -> None:
        if len(players) == 2 and not options["two_player"]:
            refuse("BAD_PLAYER_COUNT", "2038 takes 3-6 players; 2 only with the two_player option")
        seating = tx.rng.shuffle(list(players))       # bid counters drawn for seats and First Player (3)
        money = entities()["money"]
        total = options["money_total"] or money[options["variant"]]
        tx.emit(ev.GameStarted(players=seating, options=options, cash_each=money["players_share"] // len(players),
                               money_total=total))

    def precheck(self, state: State, command, actor: str) -> None:
        if actor not in self.to_act(state):
            refuse("NOT_YOUR_TURN", f"{actor} may not act now; waiting for {self.to_act(state)}")

    def advance(self, tx: Tx[State]) -> None:
        s = tx.state
        if s.round == "operating" and not s.operator and not s.pending and not s.must_discard:
            flow.next_operator(tx)          # the operator merged away or finished during a discard/decision

    # ------------------------------------------------------------------------------------ queries
    def to_act(self, state: State) -> list[str]:
        if state.round in ("over", "setup"):
            return []
        if state.must_discard:
            return sorted({state.controller(h) for h in state.must_discard})
        if state.decisions:
            return [state.decisions.decider()]
        if state.round == "stock":
            if state.auction_company >= 0:
                return [state.auction_bidders[0]]
            return [state.turn]
        if state.operator:
            return [state.controller(state.operator)]
        return []

    def legal_actions(self, state: State, player: str) -> list[dict]:
        from t2038.legal import legal_actions
        return legal_actions(state, player)

    def outcome(self, state: State) -> Outcome | None:
        if state.round != "over":
            return None
        scores = {player: stock.worth(state, player) for player in state.players}
        if state.bankrupt:
            scores[state.bankrupt] = min(scores.values()) - 1
        return Outcome.ranked(scores, reason=state.ended)

    def view(self, state: State, viewer: str | None) -> dict:
        """Everything in 2038 is open (10. Etiquette); the face-down pool is shown only as a count."""
        data = asdict(state)
        data["pool"] = len(state.pool)
        data["pending"] = [list(d) for d in state.pending]        # the decisions owed (kit DecisionQueue)
        if state.flight is not None and not state.flight.choice:     # the route helper's advice (legal.py)
            from t2038.legal import route_proposals
            data["route_proposals"] = [asdict(proposal) for proposal in route_proposals(state)]
        return data

    def invariants(self, state: State) -> list[str]:
        return broken_invariants(state)

    def bot_command(self, state: State, player: str, rnd: random.Random):
        from t2038.bots import bot_command
        return bot_command(state, player, rnd)

    bot_levels = ("easy", "normal", "strong")

    def level_command(self, state: State, player: str, rnd: random.Random, level: str):
        """The bot of a level (`t2038.bots.LEVELS`), for a bot seat."""
        from t2038.bots import bot_command
        return bot_command(state, player, rnd, level)

    def seat_state(self, state: State, player: str) -> State:
        """What a seat's bot may know: everything but the order of the face-down pool (`view`)."""
        return replace(state, pool=sorted(state.pool))

    def default_command(self, state: State, player: str):
        from t2038.bots import default_command
        return default_command(state, player)


GAME = T2038()
