"""One registry per engine: which function decides each command, which evolves each event, and how
stored events of older versions are upcast.

    RULES = Rules()

    @RULES.decides(Bid)                  # the command type and its handler: (tx, command, actor) -> None
    def bid(tx, command, actor): ...

    @RULES.evolves(BidPlaced)            # the event type and its handler: (state, event) -> None or a state
    def _bid_placed(state, event): ...

    @RULES.upcasts("BidPlaced", 1)       # stored v1 data -> v2 data; never rewrites the stored event
    def _bid_placed_v2(data): ...

Registering a type is also what makes it parse: `parse_command` and `parse_event` validate against the
union of the registered types (discriminated by `type`). Events carry their version in `v` (the class's
default is the current one); `parse_event` upcasts older data step by step (v1 → v2 → …) before
validating, so `evolve` only ever sees current shapes.
"""
from __future__ import annotations

import copy
from typing import Annotated, Any, Callable, Union

from pydantic import Field, TypeAdapter

from starbase_rules.contract import Command, Event, RuleViolation, parse_command

DecideHandler = Callable[..., None]
EvolveHandler = Callable[[Any, Any], Any]
Upcaster = Callable[[dict], dict]


class Rules:
    def __init__(self) -> None:
        self.commands: dict[str, type[Command]] = {}
        self.events: dict[str, type[Event]] = {}
        self.deciders: dict[str, DecideHandler] = {}
        self.evolvers: dict[str, EvolveHandler] = {}
        self.upcasters: dict[tuple[str, int], Upcaster] = {}
        self.versions: dict[str, int] = {}         # event type -> its current version
        self._adapters: dict[str, TypeAdapter] = {}

    # -- registering ---------------------------------------------------------------------------------

    def decides(self, command_type: type[Command]) -> Callable[[DecideHandler], DecideHandler]:
        kind = _type_name(command_type)

        def register(function: DecideHandler) -> DecideHandler:
            if kind in self.deciders:
                raise ValueError(f"{kind} already has a decide handler")
            self.commands[kind], self.deciders[kind] = command_type, function
            self._adapters.pop("commands", None)
            return function
        return register

    def evolves(self, event_type: type[Event]) -> Callable[[EvolveHandler], EvolveHandler]:
        kind = _type_name(event_type)

        def register(function: EvolveHandler) -> EvolveHandler:
            if kind in self.evolvers:
                raise ValueError(f"{kind} already has an evolve handler")
            self.events[kind], self.evolvers[kind] = event_type, function
            self.versions[kind] = event_type.model_fields["v"].default
            self._adapters.pop("events", None)
            return function
        return register

    def upcasts(self, event_type: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
        """`function(data)` turns the stored data of `event_type` at `from_version` into the shape of
        `from_version + 1` (it gets a copy; the base sets `v`)."""
        def register(function: Upcaster) -> Upcaster:
            self.upcasters[(event_type, from_version)] = function
            return function
        return register

    # -- using ---------------------------------------------------------------------------------------

    def parse_command(self, data: Any) -> Command:
        if isinstance(data, dict) and "type" not in data:    # a lone command type would default it
            raise RuleViolation("MALFORMED_COMMAND", "a command needs a 'type'")
        return parse_command(self._adapter("commands", self.commands), data)

    def parse_event(self, data: dict) -> Event:
        """A stored event's data, upcast to the current version of its type, as a typed event."""
        # Replays read every stored event through here: the current shape takes the shortest path.
        adapter = self._adapters.get("events") or self._adapter("events", self.events)
        kind = data.get("type")
        if isinstance(kind, str) and data.get("v", 1) != self.versions.get(kind, 1):
            data = self.upcast(data)
        event: Event = adapter.validate_python(data)
        return event

    def upcast(self, data: dict) -> dict:
        kind, version = data.get("type"), data.get("v", 1)
        if not isinstance(kind, str) or (current := self.versions.get(kind)) is None or version == current:
            return data                       # the current shape (or unknown: validation says why)
        while version < current:
            step = self.upcasters.get((kind, version))
            if step is None:
                raise ValueError(f"a stored {kind} is v{version} and nothing upcasts it to v{version + 1}")
            data = {**step(copy.deepcopy(data)), "type": kind, "v": version + 1}
            version += 1
        if version != current:
            raise ValueError(f"a stored {kind} is v{version}, newer than this engine's v{current}")
        return data

    def decider(self, command: Command) -> DecideHandler:
        handler = self.deciders.get(command.type)
        if handler is None:
            raise RuleViolation("MALFORMED_COMMAND", f"this game has no command {command.type!r}")
        return handler

    def evolve(self, state: Any, event: Event) -> Any:
        result = self.evolvers[event.type](state, event)
        return state if result is None else result

    def _adapter(self, which: str, types: dict[str, Any]) -> TypeAdapter:
        adapter = self._adapters.get(which)
        if adapter is None:
            members = tuple(types.values())
            if not members:
                raise ValueError(f"no {which} are registered")
            union: Any = members[0] if len(members) == 1 else Annotated[Union[members], Field(discriminator="type")]
            adapter = self._adapters[which] = TypeAdapter(union)
        return adapter


def _type_name(model: type[Command] | type[Event]) -> str:
    default = model.model_fields["type"].default if "type" in model.model_fields else None
    if not isinstance(default, str):
        raise TypeError(f"{model.__name__} needs a `type: Literal[...] = ...` default")
    return default

