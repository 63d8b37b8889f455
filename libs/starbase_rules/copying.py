"""One fast, independent copy of a game state, for `decide` (which must never touch the caller's state).

`copy.deepcopy` walks every object through its memo and `__reduce_ex__` machinery; on a typical state it
is most of the cost of `decide`. Game states are trees of dataclasses, dicts, lists and atoms with no
object reachable twice, so no memo is needed, and a dataclass's field annotations say what each field
holds. `copy_state` therefore generates, once per dataclass type, a small function that copies each
field the cheapest way its annotation allows:

    int, str, bool, float, None, Literal, tuple of atoms     shared (immutable)
    list[atom], set[atom], dict[atom, atom]                   list(x), set(x), dict(x)
    list[T], dict[K, T], T | None, another dataclass          recursively, with T's own copier
    anything else (Any, bare dict, unions, …)                 `clone`, a type-dispatched walker

A value whose runtime type does not match its annotation (a subclass, say) goes through `clone`, and
attributes outside the dataclass fields are cloned too, so nothing is ever shared by mistake; the
conformance suite checks that `decide` leaves its input equal to what it was. An engine whose state
holds other classes registers a copier for them with `register_copier(type, function)`.
"""
from __future__ import annotations

import copy
import dataclasses
import enum
import types
import typing
from typing import Any, Callable, TypeVar

T = TypeVar("T")

ATOMS = frozenset({int, float, str, bool, bytes, type(None), complex})
_COPIERS: dict[type, Callable[[Any], Any]] = {}


def register_copier(kind: type, function: Callable[[Any], Any]) -> None:
    """Copy instances of `kind` with `function` (an engine's own class with a hand-made copy, say)."""
    _COPIERS[kind] = function


def copy_state(state: T) -> T:
    """An independent copy of `state`, equal to it, sharing no mutable object with it."""
    return clone(state)


def clone(value: Any) -> Any:
    """Copy any tree of atoms, tuples, lists, dicts, sets, frozensets and dataclasses."""
    kind = type(value)
    if kind in ATOMS:
        return value
    if kind is list:
        return [item if type(item) in ATOMS else clone(item) for item in value]
    if kind is dict:
        return {key: item if type(item) in ATOMS else clone(item) for key, item in value.items()}
    copier = _COPIERS.get(kind)
    if copier is not None:
        return copier(value)
    if kind is tuple or kind is frozenset:
        if all(type(item) in ATOMS for item in value):
            return value                                  # immutable all the way down: share it
        return kind(clone(item) for item in value)
    if kind is set:
        return {clone(item) for item in value}
    if isinstance(value, enum.Enum):
        return value
    if _has_fields_in_dict(kind):
        return _copier_for(kind)(value)
    return copy.deepcopy(value)                           # correct for anything else, only slower


_GENERATING: set[type] = set()


def _has_fields_in_dict(kind: type) -> bool:
    """A dataclass whose instances keep their fields in `__dict__` (not `__slots__`)."""
    return dataclasses.is_dataclass(kind) and "__slots__" not in vars(kind)


def _copier_for(kind: type) -> Callable[[Any], Any]:
    copier = _COPIERS.get(kind)
    if copier is None:
        _GENERATING.add(kind)
        try:
            copier = _COPIERS[kind] = _generate(kind)
        finally:
            _GENERATING.discard(kind)
    return copier


# -- generating a copier for one dataclass -------------------------------------------------------

def _generate(kind: type) -> Callable[[Any], Any]:
    try:
        hints = typing.get_type_hints(kind)
    except Exception:            # an annotation that cannot be resolved: copy every field by walking it
        hints = {}
    names = [f.name for f in dataclasses.fields(kind)]
    scope: dict[str, Any] = {"_clone": clone, "_kind": kind, "_new": object.__new__, "_known": frozenset(names)}
    parts = [f"{name!r}: {_expression(hints.get(name, Any), f'd[{name!r}]', scope)}" for name in names]
    source = "\n".join([
        "def copy_one(x):",
        "    if x.__class__ is not _kind:",
        "        return _clone(x)",
        "    d = x.__dict__",
        "    new = _new(_kind)",
        f"    new.__dict__ = {{{', '.join(parts)}}}",
        f"    if len(d) != {len(names)}:",
        "        new.__dict__.update({k: _clone(v) for k, v in d.items() if k not in _known})",
        "    return new",
    ])
    exec(compile(source, f"<copier of {kind.__qualname__}>", "exec"), scope)
    function: Callable[[Any], Any] = scope["copy_one"]
    return function


def _is_atomic(hint: Any) -> bool:
    if hint in ATOMS or hint is None:
        return True
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return True
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return True
    if origin is tuple:
        arguments = [a for a in typing.get_args(hint) if a is not Ellipsis]
        return all(_is_atomic(a) for a in arguments)
    if origin is frozenset:
        return all(_is_atomic(a) for a in typing.get_args(hint))
    if origin in (typing.Union, types.UnionType):
        return all(_is_atomic(a) for a in typing.get_args(hint))
    return False


def _expression(hint: Any, source: str, scope: dict[str, Any], depth: int = 0) -> str:
    """Python source that copies `source`, a value annotated `hint`."""
    if _is_atomic(hint):
        return source
    origin, arguments = typing.get_origin(hint), typing.get_args(hint)
    item, key = f"v{depth}", f"k{depth}"
    if origin is list and arguments:
        if _is_atomic(arguments[0]):
            return f"list({source})"
        return f"[{_expression(arguments[0], item, scope, depth + 1)} for {item} in {source}]"
    if origin is set and arguments and _is_atomic(arguments[0]):
        return f"set({source})"
    if origin is dict and len(arguments) == 2 and _is_atomic(arguments[0]):
        if _is_atomic(arguments[1]):
            return f"dict({source})"
        inner = _expression(arguments[1], item, scope, depth + 1)
        return f"{{{key}: {inner} for {key}, {item} in {source}.items()}}"
    if origin in (typing.Union, types.UnionType):
        present = [a for a in arguments if a is not type(None)]
        if len(present) == 1 and len(arguments) == 2:          # T | None
            return f"(None if {source} is None else {_expression(present[0], source, scope, depth)})"
    if isinstance(hint, type) and (hint in _COPIERS or _has_fields_in_dict(hint)):
        name = f"_copy_{len(scope)}"
        # A type being generated (one that holds itself) gets its copier on first use.
        scope[name] = _Lazy(hint) if hint in _GENERATING else _copier_for(hint)
        return f"{name}({source})"
    return f"_clone({source})"


class _Lazy:
    """The copier of a nested dataclass, generated the first time one is met."""

    def __init__(self, kind: type):
        self.kind = kind
        self.copier: Callable[[Any], Any] | None = None

    def __call__(self, value: Any) -> Any:
        if self.copier is None:
            self.copier = _copier_for(self.kind)
        return self.copier(value)
