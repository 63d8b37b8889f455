"""`Engine`: the base every rules engine is built on.

An engine writes its core: the declaration (`info`), a handler registry (`rules`), and four methods,
`initial_state`, `begin` (emits the setup events), `view` and `outcome`. The base turns them into the
whole contract the platform calls (`starbase_rules.contract.Game`), with the common guards applied once:

    setup(players, options, rng)     BAD_PLAYER_COUNT, DUPLICATE_PLAYER, UNKNOWN_OPTION, BAD_OPTION,
                                     then `begin` and `advance` on a scratchpad
    decide(state, command, actor, rng)
                                     GAME_OVER, NOT_A_PLAYER (actor None too, but for the declared
                                     `info.platform_commands`), MALFORMED_COMMAND (no handler), then
                                     `precheck`, the command's handler and `advance` on a scratchpad
    evolve(state, event)             the event's handler (it may mutate and return the given state)
    parse_command / parse_event      against the registered types; events upcast to their current version

Every optional part has a default, overridden where a game knows better:

    redact(event, viewer)            the event with its declared `secret_fields` blanked (none: all of it)
    legal_actions(state, player)     []
    to_act(state)                    players with a legal action other than a declared free action
    bot_command(state, player, rnd)  a random legal action (not a free action when there is another)
    default_command(state, player)   the first legal action of `info.timeout_preference`'s types, in
                                     that order; otherwise the bot's choice with a fixed seed
    invariants(state)                []
    realtime_service(state)          `info.realtime` of the round marker (None: the adjudicator plays it)
"""
from __future__ import annotations

import abc
import operator
import random
from typing import Any, ClassVar, Generic, TypeVar

from starbase_rules.contract import Command, Event, Outcome
from starbase_rules.copying import copy_state
from starbase_rules.handlers import Rules
from starbase_rules.info import GameInfo
from starbase_rules.redaction import redact_event, secrets_of_type
from starbase_rules.scratch import DeferredTx, Tx, refuse

S = TypeVar("S")

_ALIKE: dict[tuple[type, str], bool] = {}      # `Engine.shows_everyone_alike`, per engine class and event type
_AS_STORED: dict[tuple[type, str], tuple[frozenset, int] | None] = {}   # `Engine.shown_as_stored`'s memo


class Engine(abc.ABC, Generic[S]):
    info: ClassVar[GameInfo]
    rules: ClassVar[Rules]
    # True: decisions run on a `DeferredTx` (the copy is made only when the state is read after an
    # emit), for an engine whose handlers read `tx.state` only to check and then emit. Trucker's
    # real-time building moves emit without reading again, so they cost no copy.
    deferred_copy: ClassVar[bool] = False
    _round_getter: ClassVar["operator.attrgetter[Any]"]
    # The contract's identity attributes, taken from `info` when a subclass declares it.
    name: str
    min_players: int
    max_players: int

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "info" in cls.__dict__:
            cls.name, cls.min_players, cls.max_players = cls.info.name, cls.info.min_players, cls.info.max_players
            # `attrgetter` follows dotted paths too; made once, as `decide` asks for the round every time.
            cls._round_getter = operator.attrgetter(cls.info.round_field)

    # -- the core an engine writes --------------------------------------------------------------------

    @abc.abstractmethod
    def initial_state(self) -> S:
        """The empty state that the setup events are folded into."""

    @abc.abstractmethod
    def begin(self, tx: Tx[S], players: list[str], options: dict[str, Any]) -> None:
        """Emit the setup events. `options` holds every declared option, checked, defaults filled in."""

    @abc.abstractmethod
    def view(self, state: S, viewer: str | None) -> dict:
        """What `viewer` may see (None: a spectator)."""

    @abc.abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """Final standings once the game is over, else None."""

    # -- hooks with defaults --------------------------------------------------------------------------

    def option_problems(self, options: dict[str, Any], players: list[str]) -> list[str]:
        """What is wrong with a combination of options (each value alone is checked from `info`)."""
        return []

    def precheck(self, state: S, command: Command, actor: str | None) -> None:
        """Refusals every command of this game shares (e.g. a decision is owed first). Reads only."""

    def advance(self, tx: Tx[S]) -> None:
        """Play what follows by itself after a command or the setup, until someone owes a decision."""

    def players_of(self, state: S) -> list[str]:
        players: list[str] = getattr(state, "players")
        return players

    def round_of(self, state: S) -> Any:
        """The round marker, read from the attribute `info.round_field` names (dotted paths allowed)."""
        return self._round_getter(state)

    def is_over(self, state: S) -> bool:
        return bool(self.round_of(state) == self.info.over)

    def copy_state(self, state: S) -> S:
        return copy_state(state)

    def tx(self, state: S, rng: Any = None) -> Tx[S]:
        scratchpad = DeferredTx if self.deferred_copy else Tx
        return scratchpad(state, self.evolve, self.copy_state, rng)

    # -- the contract, provided ----------------------------------------------------------------------

    def setup(self, players: list[str], options: dict, rng: Any) -> list[Event]:
        players = list(players)
        self.info.check_players(players)
        checked = self.info.check_options(options if options is not None else {})
        for problem in self.option_problems(checked, players):
            refuse("BAD_OPTION", problem)
        tx = self.tx(self.initial_state(), rng)
        self.begin(tx, players, checked)
        self.advance(tx)
        return tx.events

    def decide(self, state: S, command: Command, actor: str | None, rng: Any = None) -> list[Event]:
        if self.is_over(state):
            refuse("GAME_OVER", f"this game of {self.info.title} is over")
        if actor is None:
            if command.type not in self.info.platform_commands:
                refuse("NOT_A_PLAYER", f"{actor!r} is not playing this game")
        elif actor not in self.players_of(state):
            refuse("NOT_A_PLAYER", f"{actor!r} is not playing this game")
        # The registry's dict first (every command of a real-time game comes through here); a type with
        # no handler gets `decider`'s MALFORMED_COMMAND.
        handler = self.rules.deciders.get(command.type) or self.rules.decider(command)
        self.precheck(state, command, actor)
        tx = self.tx(state, rng)
        handler(tx, command, actor)
        self.advance(tx)
        return tx.events

    def evolve(self, state: S, event: Event) -> S:
        # `Rules.evolve` inlined: replays call this once per event, so one call less is measurable.
        result = self.rules.evolvers[event.type](state, event)
        return state if result is None else result

    def parse_command(self, data: Any) -> Command:
        return self.rules.parse_command(data)

    def parse_event(self, data: dict) -> Event:
        return self.rules.parse_event(data)

    # -- optional parts, with their defaults ------------------------------------------------------------

    def redact(self, event: Event, viewer: str | None) -> dict | None:
        return redact_event(event, viewer)

    def shows_everyone_alike(self, event_type: str) -> bool:
        """Whether `redact` shows every viewer, spectators too, the same of any event of this type, so
        that one rendering of it serves them all: a type without secret fields, while `redact` is the
        base's (an engine that overrides `redact` must say for itself; the base then answers False)."""
        key = (type(self), event_type)
        found = _ALIKE.get(key)
        if found is None:       # asked of every event a lobby pushes: worked out once per engine and type
            kind = self.rules.events.get(event_type)
            found = type(self).redact is Engine.redact and kind is not None and not secrets_of_type(kind)
            if kind is not None:            # the engine's own types only: a bounded memo
                _ALIKE[key] = found
        return found

    def shown_as_stored(self, data: dict) -> bool:
        """Whether stored event data is already what `redact` shows every viewer, so a push can use it as
        it stands: a type shown to everyone alike, stored by the current version of its class (`v`
        current, every field there, none more). Stored data is the event's `model_dump(mode="json")`,
        so parsing and dumping it again would give the same JSON back (the conformance suite checks it on
        every engine's games); anything older or unexpected takes the long way."""
        kind = data.get("type")
        if not isinstance(kind, str):
            return False
        key = (type(self), kind)
        if key not in _AS_STORED:   # asked of every event a lobby pushes: worked out once per engine and type
            event_type = self.rules.events.get(kind)
            if event_type is None:
                return False                # unknown: parsing says why (and no unbounded memo)
            _AS_STORED[key] = (frozenset(event_type.model_fields), self.rules.versions.get(kind, 1)) \
                if self.shows_everyone_alike(kind) else None
        shape = _AS_STORED[key]
        return shape is not None and data.get("v", 1) == shape[1] and data.keys() == shape[0]

    def legal_actions(self, state: S, player: str) -> list[dict]:
        return []

    def to_act(self, state: S) -> list[str]:
        if self.is_over(state):
            return []
        return [player for player in self.players_of(state) if self._owed(state, player)]

    def bot_command(self, state: S, player: str, rnd: random.Random) -> Command | None:
        actions = self.legal_actions(state, player)
        owed = [a for a in actions if a.get("type") not in self.info.free_actions]
        if not (owed or actions):
            return None
        return self.parse_command(rnd.choice(owed or actions))

    def default_command(self, state: S, player: str) -> Command | None:
        if player not in self.to_act(state):
            return None
        actions = self.legal_actions(state, player)
        for kind in self.info.timeout_preference:
            for action in actions:
                if action.get("type") == kind:
                    return self.parse_command(action)
        return self.bot_command(state, player, random.Random(0))

    def invariants(self, state: S) -> list[str]:
        return []

    def realtime_service(self, state: S) -> str | None:
        return self.info.realtime.get(str(self.round_of(state)))

    def _owed(self, state: S, player: str) -> bool:
        return any(a.get("type") not in self.info.free_actions for a in self.legal_actions(state, player))
