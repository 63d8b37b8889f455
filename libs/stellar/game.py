"""Stellar Ventures on the engine base: `GAME` implements `starbase_rules.contract.Game`.

The base applies the common guards (players, options, game over, not a player, unknown command) and
runs every decision on its scratchpad; this class adds what is Stellar's own: the setup deal, the
pending-decision guard, the automatic flow (`flow.advance`), views, legal actions, the bots.
"""
from __future__ import annotations

import random

from starbase_rules.contract import Outcome
from starbase_rules.engine import Engine
from starbase_rules.info import GameInfo, options_of
from starbase_rules.scratch import Tx, refuse
from stellar import bots, building, corporate, evolve, evolve_pieces, investor, powers  # noqa: F401  (handlers)
from stellar import queries as q
from stellar.checks import broken_invariants
from stellar.flow import advance
from stellar.rules import RULES
from stellar.setup import begin, option_problems
from stellar.state import Options, State
from stellar.view import view

DECISIONS = {"DraftPower", "SignAgreement", "DeclineAgreement", "ChooseAgentsBonus", "ChooseTaxAction", "ChooseHome",
             "UseFinePrint", "ChooseBattleCorp", "BackroomDeal", "UseSpareParts"}

INFO = GameInfo(
    name="stellar", title="Stellar Ventures", min_players=3, max_players=5, options=options_of(Options),
    round_field="round", over="over",
    # A president's powers may be used while others are to act (docs/stellar.md, "Free actions").
    free_actions=("UseAlienAlchemist", "DismantleOutpost", "UseLeakedResearch", "ReclaimCubes"),
    # A player whose clock runs out: the most passive legal choice (the lowest bid when bidding is forced).
    timeout_preference=("PassBid", "DeclineAgreement", "UseSpareParts", "ChooseTaxAction", "FinishBuilding",
                        "DeclineIssue", "SkipBuilding", "PayDividend", "FinishOrdering", "PassVoting",
                        "PassInvestorAction", "PassAlienAction", "UseFinePrint", "BackroomDeal", "OrderShip",
                        "Bid", "DraftPower", "ChooseHome", "ChooseBattleCorp", "ChooseAgentsBonus"),
)


class StellarVentures(Engine[State]):
    info = INFO
    rules = RULES

    def initial_state(self) -> State:
        return State()

    def begin(self, tx: Tx[State], players: list[str], options: dict) -> None:
        begin(tx, players, options)

    def option_problems(self, options: dict, players: list[str]) -> list[str]:
        return option_problems(options, players)

    def precheck(self, state: State, command, actor: str) -> None:
        if state.pending and command.type not in DECISIONS:
            waiting = ", ".join(f"{p.player} ({p.kind})" for p in state.pending)
            refuse("DECISION_PENDING", f"waiting for {waiting}")

    def advance(self, tx: Tx[State]) -> None:
        advance(tx)

    def view(self, state: State, viewer: str | None) -> dict:
        return view(state, viewer)

    def legal_actions(self, state: State, player: str) -> list[dict]:
        return [c.model_dump() for c in bots.candidates(state, player)]

    def to_act(self, state: State) -> list[str]:
        s = state
        if s.round == "over":
            return []
        if s.pending:
            return list(dict.fromkeys(p.player for p in s.pending))
        if s.auction is not None:
            return [s.auction.order[s.auction.turn]]
        if s.build is not None:
            return [s.build.builder]
        if s.round == "corporation" and s.corp_turn is not None:
            return [s.corps[s.corp_turn.corp].president]
        if s.round == "investor" and s.inv is not None and s.inv.step in ("voting", "shenanigans"):
            order = investor.seats(s)
            if s.inv.seat < len(order):
                return [order[s.inv.seat]]
        return []

    def outcome(self, state: State) -> Outcome | None:
        if state.round != "over":
            return None
        s = state

        def key(player: str) -> tuple[int, int]:
            # A taken-over corporation's tokens are removed from the game: no MC to compare.
            presided = [q.mining_capacity(s, c) for c, corp in s.corps.items()
                        if corp.president == player and corp.formed and not corp.taken_over]
            return s.final_scores[player], max(presided, default=-1)

        return Outcome.ranked({p: s.final_scores[p] for p in s.players}, {p: key(p) for p in s.players},
                              reason=s.end_reason)

    def invariants(self, state: State) -> list[str]:
        return broken_invariants(state)

    def bot_command(self, state: State, player: str, rnd: random.Random):
        return bots.bot_command(state, player, rnd)

    bot_levels = tuple(bots.LEVELS)

    def level_command(self, state: State, player: str, rnd: random.Random, level: str):
        """The bot of a level (`stellar.bots.LEVELS`), for a bot seat."""
        return bots.bot_command(state, player, rnd, level)

    def seat_state(self, state: State, player: str) -> State:
        return bots.seat_state(state, player)


GAME = StellarVentures()
