"""Tiny Counters, each broken in one way the conformance suite must catch (see test_conformance_catches)."""
from __future__ import annotations

from starbase_rules import refuse
from tests.engines.tiny_game import TinyCounters


class ListsAnIllegalTake(TinyCounters):
    def legal_actions(self, state, player):
        actions = super().legal_actions(state, player)
        return actions + [{"type": "Take", "count": state.options.max_take + 1}] if actions else []


class MutatesItsInput(TinyCounters):
    def precheck(self, state, command, actor):
        state.points[actor] += 1                     # touches the caller's state


class ChangesStateThenRefuses(TinyCounters):
    def precheck(self, state, command, actor):
        if actor != state.player_to_move:
            state.left += 1                          # touches the caller's state, then refuses
            refuse("NOT_YOUR_TURN", f"it is {state.player_to_move}'s turn")


class ShowsEveryLuckyNumber(TinyCounters):
    def view(self, state, viewer):
        return {**super().view(state, viewer), "lucky": dict(state.lucky)}


class RedactsNothing(TinyCounters):
    def redact(self, event, viewer):
        return event.model_dump()


class OffersTheNextPlayerATurn(TinyCounters):
    def legal_actions(self, state, player):
        upcoming = state.round == "playing" and player == state.players[(state.turn + 1) % len(state.players)]
        return [{"type": "Take", "count": 1}] if upcoming else super().legal_actions(state, player)

    def to_act(self, state):
        return [] if state.round == "over" else [state.player_to_move]


class MisreadsItsEvents(TinyCounters):
    def parse_event(self, data):
        event = super().parse_event(data)
        return event.model_copy(update={"count": 1}) if event.type == "Taken" else event


class AnswersStrangersWrongly(TinyCounters):
    def players_of(self, state):
        return [*state.players, "intruder"]


class DefaultsToAnIllegalTake(TinyCounters):
    def default_command(self, state, player):
        return self.parse_command({"type": "Take", "count": 9})


LISTS_AN_ILLEGAL_TAKE = ListsAnIllegalTake()
MUTATES_ITS_INPUT = MutatesItsInput()
CHANGES_STATE_THEN_REFUSES = ChangesStateThenRefuses()
SHOWS_EVERY_LUCKY_NUMBER = ShowsEveryLuckyNumber()
REDACTS_NOTHING = RedactsNothing()
OFFERS_THE_NEXT_PLAYER_A_TURN = OffersTheNextPlayerATurn()
MISREADS_ITS_EVENTS = MisreadsItsEvents()
ANSWERS_STRANGERS_WRONGLY = AnswersStrangersWrongly()
DEFAULTS_TO_AN_ILLEGAL_TAKE = DefaultsToAnIllegalTake()
