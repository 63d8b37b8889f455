"""`GAME`: the Trucker decider (contract in starbase_rules.contract) for the whole three-round game.

A command from a player is checked by its phase's handler (building, repair, launch, flight), which
emits the events of that decision. Then `flow.follow_up` plays everything automatic that follows
(inspection, launch, revealing cards, dice, scoring, the next round) until a player owes a decision
again, so `decide` always returns a complete step and the game never waits on nobody.
"""
from __future__ import annotations

import random
from typing import Annotated, Union

from pydantic import Field, TypeAdapter

from starbase_rules.contract import Command, Event, Outcome, RuleViolation, parse_command

from trucker_rules import build_evolve, build_phase, catalog, flow, invariants, legal, views
from trucker_rules import messages as m
from trucker_rules.flight_messages import FLIGHT_COMMANDS, FLIGHT_EVENTS
from trucker_rules.options import table_options
from trucker_rules.state import BUILDING, OVER, Player, TruckerState


def _parser(types: tuple) -> TypeAdapter:
    return TypeAdapter(Annotated[Union[types], Field(discriminator="type")])


_COMMANDS = _parser(m.BUILDING_COMMANDS + FLIGHT_COMMANDS)
_EVENTS = _parser(m.BUILDING_EVENTS + FLIGHT_EVENTS)
_BUILD_COMMANDS = set(m.BUILDING_COMMANDS)


class TruckerGame:
    name = "trucker"
    min_players = 2
    max_players = 4

    def initial_state(self) -> TruckerState:
        return TruckerState()

    def setup(self, players: list[str], options: dict, rng) -> list[Event]:
        if not self.min_players <= len(players) <= self.max_players:
            raise RuleViolation("BAD_PLAYER_COUNT", "Trucker is for 2 to 4 players")
        if len(set(players)) != len(players):
            raise RuleViolation("DUPLICATE_PLAYER", "every player must have a distinct name")
        opts = table_options(options)
        started = m.GameStarted(players=list(players), options=opts,
                                colors=dict(zip(players, catalog.STARTING_CABINS)))
        state = self.evolve(TruckerState(), started)
        return [started] + build_phase.round_setup_events(state, 1, rng)

    def parse_command(self, data: dict) -> Command:
        return parse_command(_COMMANDS, data)

    def parse_event(self, data: dict) -> Event:
        return _EVENTS.validate_python(data)

    def decide(self, state: TruckerState, command: Command, actor: str | None, rng) -> list[Event]:
        if state.phase == OVER:
            raise RuleViolation("GAME_OVER", "the game is over")
        if type(command) in _BUILD_COMMANDS:
            events = build_phase.decide_building(state, command, actor, rng)
            if state.phase == BUILDING and not any(isinstance(e, m.BuildingEnded) for e in events):
                return events          # nothing automatic follows a move made while building
        else:
            events = flow.decide_flight(state, command, actor, rng)
        scratch = state.clone()
        for event in events:
            scratch = self.evolve(scratch, event)
        return events + flow.follow_up(scratch, rng, self.evolve)

    def evolve(self, state: TruckerState, event: Event) -> TruckerState:
        if isinstance(event, m.GameStarted):
            state.players, state.options = list(event.players), dict(event.options)
            state.seats = {name: Player(name=name, cabin=event.colors[name]) for name in event.players}
            return state
        if type(event) in build_evolve.EVOLVERS:
            return build_evolve.evolve_building(state, event)
        return flow.evolve_flight(state, event)

    def view(self, state: TruckerState, viewer: str | None) -> dict:
        return views.view(state, viewer)

    def redact(self, event: Event, viewer: str | None) -> dict | None:
        return views.redact(event, viewer)

    def legal_actions(self, state: TruckerState, player: str) -> list[dict]:
        return legal.legal_actions(state, player)

    def outcome(self, state: TruckerState) -> Outcome | None:
        if state.phase != OVER:
            return None
        credits = {name: state.seats[name].credits for name in state.players}
        return Outcome.ranked(credits, reason="most cosmic credits after round 3")

    def to_act(self, state: TruckerState) -> list[str]:
        return flow.to_act(state)

    def realtime_service(self, state: TruckerState) -> str | None:
        """Who writes the game's stream now instead of the turn-based adjudicator: the real-time
        service `trucker` while a round is building (one writer per stream; it numbers the events in
        Redis). None in every other phase. The adjudicator refuses commands while this is not None."""
        return "trucker" if state.phase == BUILDING else None

    def invariants(self, state: TruckerState) -> list[str]:
        return invariants.broken(state)

    def bot_command(self, state: TruckerState, player: str, rnd: random.Random) -> Command | None:
        from trucker_rules import bots
        return bots.bot_command(state, player, rnd)

    bot_levels = ("easy", "normal", "strong")

    def level_command(self, state: TruckerState, player: str, rnd: random.Random, level: str) -> Command | None:
        """The bot of a level (`trucker_rules.flight_bots.SKIP_PLANET`), for a bot seat."""
        from trucker_rules import bots
        return bots.bot_command(state, player, rnd, level)

    def seat_state(self, state: TruckerState, player: str) -> TruckerState:
        from trucker_rules import bots
        return bots.seat_state(state, player)

    def default_command(self, state: TruckerState, player: str) -> Command | None:
        from trucker_rules import defaults
        return defaults.default_command(state, player)


GAME = TruckerGame()


def automatic_events(state: TruckerState, rng) -> list[Event]:
    """What follows by itself from `state` until someone owes a decision (inspection closed, launch,
    cards revealed and resolved, Journey's End, the next round). For a caller that appended events
    without `GAME.decide`, e.g. the real-time service after `end_of_building`. Never mutates `state`."""
    return flow.follow_up(state.clone(), rng, GAME.evolve)


def end_of_building(state: TruckerState, reason: str, rng) -> list[Event]:
    """Building stops (reason "time_up" or "all_finished"): its events and everything automatic after."""
    events = build_phase.end_of_building_events(state, reason)
    scratch = state.clone()
    for event in events:
        scratch = GAME.evolve(scratch, event)
    return events + flow.follow_up(scratch, rng, GAME.evolve)
