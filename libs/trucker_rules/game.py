"""`GAME`: Trucker on the engine base (`starbase_rules.Engine`), the whole three-round game.

The base applies the common guards (players, options, game over, not a player, unknown command) and
runs each command's registered handler (building and repair: `build_phase.py`; launch and flight
decisions, giving up: `flow.py`) on its scratchpad. Then `advance` plays everything automatic that
follows (inspection, launch, revealing cards, dice, scoring, the next round) until a player owes a
decision again, so `decide` always returns a complete step and the game never waits on nobody.
Building is played on the real-time service (`info.realtime`); its clock's commands may come from no
player (`info.platform_commands`).
"""
from __future__ import annotations

import random

from starbase_rules.contract import Command, Event, Outcome
from starbase_rules.engine import Engine
from starbase_rules.info import GameInfo, options_of
from starbase_rules.scratch import Tx
from trucker_rules import build_evolve, build_phase, catalog, flow, invariants, legal, views  # noqa: F401  (handlers)
from trucker_rules import messages as m
from trucker_rules.options import Options
from trucker_rules.rules import RULES
from trucker_rules.state import BUILDING, OVER, TruckerState

INFO = GameInfo(
    name="trucker", title="Trucker", min_players=2, max_players=4, options=options_of(Options),
    round_field="phase", over=OVER, realtime={BUILDING: "trucker"},
    # Never owed: a ship in flight may give up between anyone's decisions; a finished builder may still
    # look at a pile (then owes putting it back) and turn the hourglass.
    free_actions=("GiveUp", "LookAtPile", "TurnTimer"),
    platform_commands=("StartBuilding", "TurnTimer", "CallTimeUp"),     # the table's clock
)

# The one event of a move made while building that does not end it: nothing follows it by itself.
_BUILDING_MOVES = frozenset({
    m.BuildingStarted, m.ComponentGrabbed, m.ComponentPlaced, m.NewestMoved, m.ComponentReturned,
    m.ComponentReserved, m.PileTaken, m.PileReturned, m.TimerTurned, m.ShipFinished})


class Trucker(Engine[TruckerState]):
    info = INFO
    rules = RULES
    deferred_copy = True        # a building move is checked and emitted: it needs no copy of the state

    def initial_state(self) -> TruckerState:
        return TruckerState()

    def begin(self, tx: Tx[TruckerState], players: list[str], options: dict) -> None:
        tx.emit(m.GameStarted(players=players, options=options, colors=dict(zip(players, catalog.STARTING_CABINS))))
        for event in build_phase.round_setup_events(tx.state, 1, tx.rng):
            tx.emit(event)

    def advance(self, tx: Tx[TruckerState]) -> None:
        events = tx.events
        if len(events) == 1 and type(events[0]) in _BUILDING_MOVES:
            return          # a move while building: nothing follows, so the state is not even read
        flow.follow_up(tx)

    def is_over(self, state: TruckerState) -> bool:
        return state.phase == OVER           # the base's own reading, without its indirection (hot path)

    def view(self, state: TruckerState, viewer: str | None) -> dict:
        return views.view(state, viewer)

    def legal_actions(self, state: TruckerState, player: str) -> list[dict]:
        return legal.legal_actions(state, player)

    def outcome(self, state: TruckerState) -> Outcome | None:
        if state.phase != OVER:
            return None
        credits = {name: state.seats[name].credits for name in state.players}
        return Outcome.ranked(credits, reason="most cosmic credits after round 3")

    def to_act(self, state: TruckerState) -> list[str]:
        return flow.to_act(state)

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


GAME = Trucker()


def automatic_events(state: TruckerState, rng) -> list[Event]:
    """What follows by itself from `state` until someone owes a decision (inspection closed, launch,
    cards revealed and resolved, Journey's End, the next round). For a caller that appended events
    without `GAME.decide`, e.g. after `end_of_building`'s own events. Never mutates `state`."""
    tx = GAME.tx(state, rng)
    flow.follow_up(tx)
    return tx.events


def end_of_building(state: TruckerState, reason: str, rng) -> list[Event]:
    """Building stops (reason "time_up" or "all_finished"): its events and everything automatic after."""
    tx = GAME.tx(state, rng)
    for event in build_phase.end_of_building_events(state, reason):
        tx.emit(event)
    flow.follow_up(tx)
    return tx.events
