"""Stellar Ventures as a Starbase decider: `GAME` implements `starbase_rules.contract.Game`."""
from __future__ import annotations

import random

from starbase_rules.contract import Outcome, RuleViolation, parse_command
from stellar import bots, building, corporate, investor, powers  # noqa: F401  (modules register their handlers)
from stellar import queries as q
from stellar.checks import broken_invariants
from stellar.commands import COMMAND_ADAPTER
from stellar.corporate import HANDLERS
from stellar.events import EVENT_ADAPTER
from stellar.evolve import evolve
from stellar.flow import Ctx, advance
from stellar.setup import setup_events
from stellar.state import State
from stellar.view import redact, view

DECISIONS = {"DraftPower", "SignAgreement", "DeclineAgreement", "ChooseAgentsBonus", "ChooseTaxAction", "ChooseHome",
             "UseFinePrint", "ChooseBattleCorp", "BackroomDeal", "UseSpareParts"}


class StellarVentures:
    name = "stellar"
    min_players = 3
    max_players = 5

    def initial_state(self) -> State:
        return State()

    def setup(self, players, options, rng):
        return setup_events(list(players), dict(options or {}), rng)

    def parse_command(self, data: dict):
        return parse_command(COMMAND_ADAPTER, data)

    def parse_event(self, data: dict):
        return EVENT_ADAPTER.validate_python(data)

    def decide(self, state: State, command, actor, rng):
        if state.round == "over":
            raise RuleViolation("GAME_OVER", "the game has ended")
        if actor not in state.players:
            raise RuleViolation("NOT_A_PLAYER", f"{actor!r} is not playing this game")
        if state.pending and command.type not in DECISIONS:
            waiting = ", ".join(f"{p.player} ({p.kind})" for p in state.pending)
            raise RuleViolation("DECISION_PENDING", f"waiting for {waiting}")
        handle = HANDLERS.get(command.type)
        if handle is None:
            raise RuleViolation("MALFORMED_COMMAND", f"unknown command {command.type}")
        ctx = Ctx(state, rng)
        handle(ctx, command, actor)
        advance(ctx)
        return ctx.events

    def evolve(self, state: State, event) -> State:
        return evolve(state, event)

    def view(self, state: State, viewer):
        return view(state, viewer)

    def redact(self, event, viewer):
        return redact(event, viewer)

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

    def default_command(self, state: State, player: str):
        return bots.default_command(state, player)


GAME = StellarVentures()
