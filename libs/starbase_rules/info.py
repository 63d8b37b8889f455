"""What a game declares about itself: name, title, player range, table options, rounds.

The declaration is data (`GameInfo.model_dump(mode="json")`), so the lobby can build a table form and
refuse bad options from it without asking the engine, and the base checks every table against it once:

    BAD_PLAYER_COUNT   fewer or more players than the range
    DUPLICATE_PLAYER   the same player twice
    UNKNOWN_OPTION     a key the game does not declare
    BAD_OPTION         a value of the wrong type, outside its range or not one of its choices

Options are declared once, as the fields of the engine's options dataclass, with `option(...)`:

    @dataclass
    class Options:
        difficulty: str = option("friendly", "alien start 4 / 7 / 10", choices=("friendly", "adverse", "hostile"))
        starting_cubes: int = option(1, "technology cubes per player at the start", minimum=0, maximum=4)

and `options_of(Options)` turns them into `OptionSpec`s (the type comes from the annotation).
"""
from __future__ import annotations

import dataclasses
import math
import types
import typing
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from starbase_rules.contract import RuleViolation

OptionType = Literal["bool", "int", "float", "str"]
_TYPES: dict[Any, OptionType] = {bool: "bool", int: "int", float: "float", str: "str"}


class OptionSpec(BaseModel):
    """One table option: its type, its default, what values it takes and what it means (one line)."""

    model_config = ConfigDict(frozen=True)
    key: str
    type: OptionType
    default: Any
    description: str
    choices: tuple[Any, ...] | None = None     # the only values allowed, when given
    minimum: float | None = None               # numbers: inclusive bounds, when given
    maximum: float | None = None
    nullable: bool = False                     # None is allowed (it means "the game's own default")

    def problem(self, value: Any) -> str | None:
        """Why `value` is not acceptable for this option, or None."""
        if value is None:
            return None if self.nullable else f"option {self.key!r} needs a value"
        wanted = {"bool": (bool,), "int": (int,), "float": (int, float), "str": (str,)}[self.type]
        if not isinstance(value, wanted) or (self.type != "bool" and isinstance(value, bool)):
            return f"option {self.key!r} must be a {self.type}, not {value!r}"
        if self.choices is not None and value not in self.choices:
            return f"option {self.key!r} must be one of {list(self.choices)}, not {value!r}"
        if isinstance(value, float) and not math.isfinite(value):
            return f"option {self.key!r} must be a finite number, not {value!r}"
        if self.type in ("int", "float"):
            number = typing.cast(float, value)        # the type check above made sure
            if self.minimum is not None and number < self.minimum:
                return f"option {self.key!r} must be at least {_number(self.minimum)}, not {value!r}"
            if self.maximum is not None and number > self.maximum:
                return f"option {self.key!r} must be at most {_number(self.maximum)}, not {value!r}"
        return None


class GameInfo(BaseModel):
    """A game's declaration. `round_field` names the state attribute that holds the round marker (every
    engine's state has one, under whatever name); `over` is its value once the game has ended;
    `realtime` maps a round-marker value to the service that plays that round (Trucker's building is
    played on the `trucker` service, not through the adjudicator)."""

    model_config = ConfigDict(frozen=True)
    name: str                                   # the registry key: "stellar"
    title: str                                  # for people: "Stellar Ventures"
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...] = ()
    round_field: str = "round"
    over: str = "over"
    realtime: dict[str, str] = Field(default_factory=dict)
    # Commands a player may send while nobody waits for them (free actions such as a president's
    # power): a player whose only legal actions are these does not owe a decision.
    free_actions: tuple[str, ...] = ()
    # Command types the platform itself may send (actor None), such as a table clock's "time is up";
    # every other command from no player is NOT_A_PLAYER.
    platform_commands: tuple[str, ...] = ()
    # Command types a player whose clock ran out plays, most preferred first (the first legal one).
    timeout_preference: tuple[str, ...] = ()

    def option(self, key: str) -> OptionSpec:
        return next(spec for spec in self.options if spec.key == key)

    def check_players(self, players: list[str]) -> None:
        if not self.min_players <= len(players) <= self.max_players:
            raise RuleViolation("BAD_PLAYER_COUNT", f"{self.title} takes {self.min_players} to "
                                f"{self.max_players} players, not {len(players)}")
        if len(set(players)) != len(players):
            twice = sorted({p for p in players if players.count(p) > 1})
            raise RuleViolation("DUPLICATE_PLAYER", f"every player must be seated once: {twice} appear twice")

    def check_options(self, raw: dict) -> dict[str, Any]:
        """Every declared option, with `raw`'s values over the defaults; refuses unknown keys and bad values."""
        if not isinstance(raw, dict):
            raise RuleViolation("BAD_OPTION", "table options must be an object of key: value")
        known = [spec.key for spec in self.options]
        unknown = sorted(str(key) for key in raw if key not in known)
        if unknown:
            raise RuleViolation("UNKNOWN_OPTION", f"{self.title} has no table option(s) {unknown}; "
                                f"its options are {known}")
        for spec in self.options:
            if spec.key in raw and (problem := spec.problem(raw[spec.key])):
                raise RuleViolation("BAD_OPTION", problem)
        return {spec.key: raw.get(spec.key, spec.default) for spec in self.options}


def option(default: Any, description: str, *, choices: tuple[Any, ...] | None = None,
           minimum: float | None = None, maximum: float | None = None) -> Any:
    """A field of an options dataclass that is also a declared table option (see the module's doc)."""
    return dataclasses.field(default=default, metadata={
        "option": {"description": description, "choices": choices, "minimum": minimum, "maximum": maximum}})


def options_of(options_class: type) -> tuple[OptionSpec, ...]:
    """The `OptionSpec`s of an options dataclass whose fields were declared with `option(...)`."""
    hints = typing.get_type_hints(options_class)
    specs = []
    for field in dataclasses.fields(options_class):
        declared = field.metadata.get("option")
        if declared is None:
            raise TypeError(f"{options_class.__name__}.{field.name} is not declared with option(...)")
        kind, nullable = _option_type(hints[field.name])
        specs.append(OptionSpec(key=field.name, type=kind, default=field.default, nullable=nullable, **declared))
    return tuple(specs)


def _option_type(hint: Any) -> tuple[OptionType, bool]:
    arguments = typing.get_args(hint)
    if typing.get_origin(hint) in (typing.Union, types.UnionType) and type(None) in arguments:
        present = [a for a in arguments if a is not type(None)]
        if len(present) == 1 and present[0] in _TYPES:
            return _TYPES[present[0]], True
    if hint in _TYPES:
        return _TYPES[hint], False
    raise TypeError(f"a table option is a bool, int, float or str (or one of them | None), not {hint!r}")


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)
