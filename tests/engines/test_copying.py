"""The base's state copy: equal to the original, sharing no mutable object with it, whatever the state holds."""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal

import pytest

from starbase_rules.copying import clone, copy_state, register_copier


class Colour(Enum):
    RED = "red"


@dataclass
class Piece:
    name: str
    spots: list[int] = field(default_factory=list)


@dataclass
class Special(Piece):
    extra: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Slotted:
    items: list[int] = field(default_factory=list)


@dataclass
class Node:
    value: int
    child: "Node | None" = None


class Handmade:
    """Not a dataclass: copied by the function registered for it."""

    def __init__(self, items):
        self.items = items

    def __eq__(self, other):
        return isinstance(other, Handmade) and self.items == other.items


register_copier(Handmade, lambda h: Handmade(list(h.items)))


@dataclass
class State:
    count: int = 0
    name: str = "x"
    colour: Colour = Colour.RED
    flags: tuple[int, ...] = (1, 2)
    names: list[str] = field(default_factory=list)
    table: dict[str, int] = field(default_factory=dict)
    pieces: list[Piece] = field(default_factory=list)
    by_name: dict[str, Piece] = field(default_factory=dict)
    nested: dict[str, list[int]] = field(default_factory=dict)
    maybe: Piece | None = None
    anything: Any = None
    bare: dict = field(default_factory=dict)
    grid: list[list[int]] = field(default_factory=list)
    tags: set[str] = field(default_factory=set)
    pairs: tuple[list[int], ...] = ()
    frozen_ids: frozenset[int] = frozenset()
    slotted: Slotted = field(default_factory=Slotted)
    chain: Node | None = None
    handmade: Handmade | None = None


def _full() -> State:
    state = State(count=3, names=["a", "b"], table={"a": 1}, pieces=[Piece("p", [1]), Special("s", [2], ["x"])],
                  by_name={"q": Piece("q", [3])}, nested={"k": [1, 2]}, maybe=Piece("m", [4]),
                  anything={"deep": [{"er": [1]}]}, bare={"z": [1]}, grid=[[1, 2], [3]], tags={"t"},
                  pairs=([1], [2]), frozen_ids=frozenset({1}), slotted=Slotted([5]),
                  chain=Node(1, Node(2, Node(3))), handmade=Handmade([7]))
    state.late_attribute = [9]          # an attribute outside the fields (a cache, say) is copied too
    return state


def _mutable_ids(value, seen=None) -> set[int]:
    seen = set() if seen is None else seen
    if isinstance(value, (int, str, float, bool, bytes, Enum, type(None))):
        return seen
    if not isinstance(value, (tuple, frozenset)):
        seen.add(id(value))
    children = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple, set, frozenset)) \
        else [getattr(value, name) for name in getattr(value, "__slots__", ())] + list(getattr(value, "__dict__", {}).values())
    for child in children:
        _mutable_ids(child, seen)
    return seen


def test_a_copy_is_equal_and_shares_no_mutable_object():
    original = _full()
    copied = copy_state(original)
    assert copied == original and copied.late_attribute == [9]
    assert _mutable_ids(original) & _mutable_ids(copied) == set()


def test_a_subclass_where_the_annotation_names_its_base_keeps_its_own_fields():
    copied = copy_state(_full())
    assert type(copied.pieces[1]) is Special and copied.pieces[1].extra == ["x"]


def test_changing_the_copy_leaves_the_original_alone():
    original = _full()
    before = copy.deepcopy(original)
    copied = copy_state(original)
    copied.names.append("c")
    copied.pieces[0].spots.append(9)
    copied.by_name["q"].spots.clear()
    copied.nested["k"].append(3)
    copied.anything["deep"][0]["er"].append(2)
    copied.grid[0].append(7)
    copied.chain.child.child.value = 99
    copied.slotted.items.append(6)
    copied.handmade.items.append(8)
    copied.late_attribute.append(1)
    assert original == before and original.late_attribute == [9]


@pytest.mark.parametrize("value", [[1, [2]], {"a": {"b": [1]}}, (1, [2]), {1, 2}, frozenset({(1, 2)}), 3, "s", None])
def test_clone_copies_plain_containers(value):
    copied = clone(value)
    assert copied == value
    if isinstance(value, (list, dict, set)):
        assert copied is not value


# -- the copy follows the annotations ------------------------------------------------------------------

class Opaque:
    """Stands for a value the annotation says is immutable: the copy must share it, never deep-copy it."""

    def __deepcopy__(self, memo):
        raise AssertionError("a field annotated as immutable was deep-copied")


@dataclass
class Tagged:
    label: str
    note: str
    kind: Literal["a", "b"] = "a"
    colour: Colour = Colour.RED
    flags: tuple[int, ...] = ()
    maybe: str | None = None
    names: list[str] = field(default_factory=list)
    table: dict[str, int] = field(default_factory=dict)
    optional_names: list[str] | None = None
    pair: tuple[int, list[int]] = (0, [])
    rows: list[list[Piece]] = field(default_factory=list)
    groups: dict[str, list[Piece]] = field(default_factory=dict)
    either: int | list[int] = 0


def test_fields_annotated_as_immutable_are_shared_by_the_generated_copier():
    sentinel = Opaque()
    original = Tagged(label="t", note=sentinel, kind=sentinel, colour=sentinel, flags=sentinel, maybe=sentinel,
                      names=[sentinel], table={"a": sentinel}, optional_names=[sentinel], pair=(1, [2]),
                      rows=[[Piece("r", [1])]], groups={"g": [Piece("g", [2])]}, either=[3])
    copied = copy_state(original)
    assert copied.note is sentinel and copied.kind is sentinel and copied.flags is sentinel
    assert copied.names[0] is sentinel and copied.table["a"] is sentinel and copied.optional_names[0] is sentinel
    assert copied.names is not original.names and copied.optional_names is not original.optional_names
    assert copied.pair == (1, [2]) and copied.pair[1] is not original.pair[1]
    assert copied.rows == original.rows and copied.rows[0][0] is not original.rows[0][0]
    assert copied.groups == original.groups and copied.groups["g"][0].spots is not original.groups["g"][0].spots
    assert copied.either == [3] and copied.either is not original.either      # a union of a list is copied


def test_a_registered_copier_is_the_one_used():
    calls = []

    class Marked:
        pass

    register_copier(Marked, lambda value: calls.append(value) or Marked())
    original = Marked()
    assert type(clone(original)) is Marked and calls == [original]


@dataclass
class Unresolvable:
    items: "list[NoSuchType]"  # noqa: F821  (an annotation that cannot be resolved)


def test_a_dataclass_whose_annotations_cannot_be_resolved_is_still_copied_whole():
    original = Unresolvable(items=[[1], [2]])
    copied = copy_state(original)
    assert copied == original and copied.items[0] is not original.items[0]
