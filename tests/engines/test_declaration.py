"""A game's declaration (`GameInfo`): the player range and the table options, checked once by the base."""
from __future__ import annotations

from dataclasses import dataclass

import pytest

from starbase_rules import GameInfo, RuleViolation, option, options_of


@dataclass
class Options:
    level: str = option("easy", "how hard", choices=("easy", "hard"))
    rounds: int = option(3, "rounds to play", minimum=1, maximum=9)
    fast: bool = option(False, "short turns")
    ratio: float = option(0.5, "a share", minimum=0, maximum=1)
    funds: int | None = option(None, "starting funds (none: the printed amount)", minimum=0)


INFO = GameInfo(name="demo", title="Demo", min_players=2, max_players=4, options=options_of(Options))


def refused(code, call, *args):
    with pytest.raises(RuleViolation) as caught:
        call(*args)
    assert caught.value.code == code and caught.value.message
    return caught.value.message


def test_options_are_declared_from_the_dataclass_fields():
    specs = {spec.key: spec for spec in INFO.options}
    assert list(specs) == ["level", "rounds", "fast", "ratio", "funds"]
    assert (specs["level"].type, specs["level"].choices, specs["level"].default) == ("str", ("easy", "hard"), "easy")
    assert (specs["rounds"].type, specs["rounds"].minimum, specs["rounds"].maximum) == ("int", 1, 9)
    assert specs["fast"].type == "bool" and specs["ratio"].type == "float"
    assert specs["funds"].nullable and not specs["rounds"].nullable
    assert specs["rounds"].description == "rounds to play"


def test_the_declaration_is_plain_json_for_the_lobby():
    dumped = INFO.model_dump(mode="json")
    assert dumped["options"][0] == {"key": "level", "type": "str", "default": "easy", "description": "how hard",
                                    "choices": ["easy", "hard"], "minimum": None, "maximum": None, "nullable": False}
    assert GameInfo.model_validate(dumped) == INFO


def test_checked_options_hold_every_declared_option_with_its_default():
    assert INFO.check_options({}) == {"level": "easy", "rounds": 3, "fast": False, "ratio": 0.5, "funds": None}
    assert INFO.check_options({"rounds": 9, "ratio": 1, "funds": 0})["rounds"] == 9


def test_an_unknown_key_is_unknown_option_and_names_the_known_ones():
    message = refused("UNKNOWN_OPTION", INFO.check_options, {"speed": 1, "level": "easy"})
    assert "speed" in message and "rounds" in message


@pytest.mark.parametrize("raw, words", [
    ({"level": "medium"}, "one of"), ({"level": 1}, "must be a str"),
    ({"rounds": 0}, "at least 1"), ({"rounds": 10}, "at most 9"), ({"rounds": "3"}, "must be a int"),
    ({"rounds": True}, "must be a int"), ({"rounds": 2.5}, "must be a int"), ({"rounds": None}, "needs a value"),
    ({"fast": 1}, "must be a bool"), ({"fast": "yes"}, "must be a bool"),
    ({"ratio": 1.5}, "at most 1"), ({"ratio": -0.1}, "at least 0"), ({"ratio": float("nan")}, "finite"),
    ({"funds": -1}, "at least 0"),
])
def test_a_bad_value_is_bad_option_in_the_games_words(raw, words):
    assert words in refused("BAD_OPTION", INFO.check_options, raw)


def test_options_that_are_not_an_object_are_bad_option():
    refused("BAD_OPTION", INFO.check_options, ["level", "easy"])


@pytest.mark.parametrize("players, code", [(["a"], "BAD_PLAYER_COUNT"), (["a", "b", "c", "d", "e"], "BAD_PLAYER_COUNT"),
                                           (["a", "b", "a"], "DUPLICATE_PLAYER")])
def test_players_are_checked_against_the_range_and_for_duplicates(players, code):
    refused(code, INFO.check_players, players)


def test_the_player_range_is_inclusive():
    INFO.check_players(["a", "b"])
    INFO.check_players(["a", "b", "c", "d"])


def test_a_field_without_option_or_of_another_type_cannot_be_declared():
    @dataclass
    class Plain:
        level: str = "easy"

    @dataclass
    class Listy:
        items: list = option(None, "a list")

    with pytest.raises(TypeError, match="option"):
        options_of(Plain)
    with pytest.raises(TypeError, match="bool, int, float or str"):
        options_of(Listy)
