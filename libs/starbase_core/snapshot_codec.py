"""Engine states as plain JSON data and back, safe to decode whatever the data says.

Engines keep their state in dataclasses (and may use pydantic models, enums, tuples, sets, dicts with
non-string keys). `to_plain` turns such a state into JSON-able data; `from_plain` rebuilds it exactly.
Why not pickle: unpickling runs whatever the bytes name, so anyone who could write a snapshot could run
code in the adjudicator. Here decoding builds only JSON values, lists, tuples, sets, dicts, and instances
of dataclasses, pydantic models and enums *defined in the packages it is given* (the engine's own, the
kit, the contract), filling their fields directly without calling `__init__`: a hostile snapshot can
at worst describe a wrong state (which the snapshot's signature is there to stop), never run code.

Tagged values are JSON objects with the key "~": {"~": "tuple", "v": [...]}, {"~": "data", "c":
"module:Class", "v": {field: value}}, … A plain dict whose keys are all strings (none "~") stays a
JSON object. A mutable object reachable twice from the state (two fields holding one list) would come
back as two objects, so it is refused (`Unsupported`): that engine's games then get no snapshot.
"""
from __future__ import annotations

import base64
import dataclasses
import enum
import importlib
from typing import Any, Callable

from pydantic import BaseModel

TAG = "~"


class Unsupported(TypeError):
    """The state holds something this codec cannot rebuild exactly."""


def to_plain(value: Any) -> Any:
    return _Encoder().encode(value)


def from_plain(data: Any, packages: tuple[str, ...]) -> Any:
    """Rebuild what `to_plain` made; classes must live in one of `packages` (or their subpackages)."""
    return _Decoder(packages).decode(data)


class _Encoder:
    def __init__(self) -> None:
        self._seen: set[int] = set()

    def _once(self, value: Any) -> None:
        if id(value) in self._seen:
            raise Unsupported(f"one {type(value).__name__} is reachable twice from the state")
        self._seen.add(id(value))

    def encode(self, value: Any) -> Any:
        if value is None or type(value) in (bool, int, float, str):
            return value
        if isinstance(value, list):
            self._once(value)
            return [self.encode(item) for item in value]
        if isinstance(value, dict):
            self._once(value)
            if all(type(key) is str and key != TAG for key in value):
                return {key: self.encode(item) for key, item in value.items()}
            return {TAG: "dict", "v": [[self.encode(k), self.encode(v)] for k, v in value.items()]}
        if isinstance(value, tuple) and type(value) is tuple:
            return {TAG: "tuple", "v": [self.encode(item) for item in value]}
        if type(value) in (set, frozenset):
            if type(value) is set:
                self._once(value)
            return {TAG: type(value).__name__, "v": [self.encode(item) for item in value]}
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            if not value.__dataclass_params__.frozen:      # type: ignore[attr-defined]
                self._once(value)
            return {TAG: "data", "c": _name(type(value)),
                    "v": {f.name: self.encode(getattr(value, f.name)) for f in dataclasses.fields(value)}}
        if isinstance(value, BaseModel):
            if not value.model_config.get("frozen"):
                self._once(value)
            return {TAG: "model", "c": _name(type(value)),
                    "v": {name: self.encode(getattr(value, name)) for name in type(value).model_fields}}
        if isinstance(value, enum.Enum):
            return {TAG: "enum", "c": _name(type(value)), "v": self.encode(value.value)}
        if isinstance(value, bytes):
            return {TAG: "bytes", "v": base64.b64encode(value).decode()}
        raise Unsupported(f"a {type(value).__module__}.{type(value).__qualname__} in the state")


class _Decoder:
    def __init__(self, packages: tuple[str, ...]):
        self.packages = packages
        self._classes: dict[str, type] = {}

    def decode(self, data: Any) -> Any:
        if isinstance(data, list):
            return [self.decode(item) for item in data]
        if not isinstance(data, dict):
            return data
        tag = data.get(TAG)
        if tag is None:
            return {key: self.decode(item) for key, item in data.items()}
        items = data["v"]
        if tag == "tuple":
            return tuple(self.decode(item) for item in items)
        if tag == "set":
            return {self.decode(item) for item in items}
        if tag == "frozenset":
            return frozenset(self.decode(item) for item in items)
        if tag == "dict":
            return {self.decode(key): self.decode(item) for key, item in items}
        if tag == "bytes":
            return base64.b64decode(items, validate=True)
        if tag == "enum":
            return self._class(data["c"], lambda c: issubclass(c, enum.Enum))(self.decode(items))
        if tag == "data":
            cls = self._class(data["c"], dataclasses.is_dataclass)
            names = [f.name for f in dataclasses.fields(cls)]
            if sorted(names) != sorted(items):
                raise ValueError(f"{data['c']} has fields {names}, the data {sorted(items)}")
            built = cls.__new__(cls)
            for name in names:
                object.__setattr__(built, name, self.decode(items[name]))   # frozen and slotted alike
            return built
        if tag == "model":
            cls = self._class(data["c"], lambda c: issubclass(c, BaseModel))
            return cls.model_construct(**{name: self.decode(item) for name, item in items.items()})
        raise ValueError(f"unknown tag {tag!r}")

    def _class(self, name: str, kind: Callable[[type], bool]) -> Any:
        if name in self._classes:
            return self._classes[name]
        module_name, _, qualname = name.partition(":")
        if not any(module_name == p or module_name.startswith(p + ".") for p in self.packages):
            raise ValueError(f"{name} is not a class of {', '.join(self.packages)}")
        found: Any = importlib.import_module(module_name)
        for part in qualname.split("."):
            found = getattr(found, part)
        if not isinstance(found, type) or not kind(found):
            raise ValueError(f"{name} is not a class this codec rebuilds")
        self._classes[name] = found
        return found


def _name(cls: type) -> str:
    if "<locals>" in cls.__qualname__:
        raise Unsupported(f"{cls.__qualname__} is defined inside a function")
    return f"{cls.__module__}:{cls.__qualname__}"
