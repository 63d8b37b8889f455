"""The base's refusals say what is wrong in the game's words (exact messages), and the edges of the
declaration, the registry and the models that the other tests do not reach."""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

import pytest
from pydantic import ValidationError

from starbase_rules import Command, Event, FairRng, GameInfo, Outcome, Rules, RuleViolation, fold, option, options_of
from starbase_rules.info import OptionSpec
from starbase_rules.redaction import redact_event
from tests.engines.tiny_game import GAME, INFO, Take, TinyCounters

PLAYERS = ["ann", "bob", "cy"]


def message(call, *args) -> str:
    with pytest.raises(RuleViolation) as caught:
        call(*args)
    assert str(caught.value) == f"{caught.value.code}: {caught.value.message}"
    return caught.value.message


# -- messages ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("data, expected", [
    ({"type": "Fly"}, "there is no command 'Fly' in this game"),
    ({"count": 2}, "a command needs a 'type'"),
    ([], "a command is an object with a 'type' and its fields"),
    ({"type": "Take"}, "Take: count: Field required"),
    ({"type": "Take", "count": 1, "extra": 2}, "Take: extra: Extra inputs are not permitted"),
])
def test_a_malformed_command_is_named_in_the_commands_terms(data, expected):
    assert message(GAME.parse_command, data) == expected
    with pytest.raises(RuleViolation, match="^MALFORMED_COMMAND: "):
        GAME.parse_command(data)


def test_several_wrong_fields_are_named_together_up_to_three():
    from stellar.game import GAME as STELLAR
    assert message(STELLAR.parse_command, {"type": "PlaceVotes", "corp": 1, "count": "x"}) == (
        "PlaceVotes: corp: Input should be a valid string; "
        "count: Input should be a valid integer, unable to parse string as an integer")
    assert message(STELLAR.parse_command, {"type": "ReclaimCubes", "corp": 1, "boost_cubes": "x", "wormhole": "x",
                                           "extra": 1}).count("; ") == 2


def test_an_unknown_type_among_several_and_a_nested_field_are_named():
    from stellar.game import GAME as STELLAR
    assert message(STELLAR.parse_command, {"type": "Fly"}) == "there is no command 'Fly' in this game"
    assert message(STELLAR.parse_command, {"type": "OrderShip", "loan_outposts": [1]}) == \
        "OrderShip: loan_outposts.0: Input should be a valid string"


def test_the_contracts_parser_for_an_engine_not_on_the_base_says_the_type_is_missing():
    from typing import Annotated, Union

    from pydantic import Field, TypeAdapter

    from starbase_rules import parse_command
    union = TypeAdapter(Annotated[Union[Ping, Pong], Field(discriminator="type")])
    assert message(parse_command, union, {"count": 1}) == "a command needs a 'type'"


SPEC = OptionSpec(key="rounds", type="int", default=3, description="rounds", minimum=1, maximum=9)


@pytest.mark.parametrize("value, expected", [
    (None, "option 'rounds' needs a value"), ("3", "option 'rounds' must be a int, not '3'"),
    (0, "option 'rounds' must be at least 1, not 0"), (10, "option 'rounds' must be at most 9, not 10"),
    (float("inf"), "option 'rounds' must be a int, not inf"),
])
def test_an_option_value_problem_says_which_option_and_why(value, expected):
    assert SPEC.problem(value) == expected


def test_choice_and_finite_number_problems():
    level = OptionSpec(key="level", type="str", default="easy", description="d", choices=("easy", "hard"))
    share = OptionSpec(key="share", type="float", default=0.5, description="d", minimum=0.5, maximum=1)
    assert level.problem("medium") == "option 'level' must be one of ['easy', 'hard'], not 'medium'"
    assert share.problem(float("nan")) == "option 'share' must be a finite number, not nan"
    assert share.problem(0.25) == "option 'share' must be at least 0.5, not 0.25"


def test_player_and_option_refusals_name_the_game_and_what_is_wrong():
    assert message(INFO.check_players, ["ann"]) == "Tiny Counters takes 2 to 4 players, not 1"
    assert message(INFO.check_players, ["ann", "bob", "ann"]) == \
        "every player must be seated once: ['ann'] appear twice"
    assert message(INFO.check_options, {"speed": 1}).startswith("Tiny Counters has no table option(s) ['speed']; "
                                                                "its options are ['counters', 'max_take',")
    assert message(INFO.check_options, "fast") == "table options must be an object of key: value"


def test_decide_guards_say_why():
    rng = FairRng(b"m")
    state = fold(GAME, GAME.setup(PLAYERS, {"counters": 5}, rng))
    assert message(GAME.decide, state, Take(count=1), "eve", rng) == "'eve' is not playing this game"
    while GAME.outcome(state) is None:
        player = GAME.to_act(state)[0]
        state = fold(GAME, GAME.decide(state, GAME.default_command(state, player), player, rng), state)
    assert message(GAME.decide, state, Take(count=1), "ann", rng) == "this game of Tiny Counters is over"

    class Dance(Command):
        type: Literal["Dance"] = "Dance"

    fresh = fold(GAME, GAME.setup(PLAYERS, {}, rng))
    assert message(GAME.decide, fresh, Dance(), "ann", rng) == "this game has no command 'Dance'"


def test_registry_and_scratchpad_errors_say_why():
    from starbase_rules.registry import ENGINES, get_game
    assert message(get_game, "chess").startswith("no game called 'chess'; known: [")
    assert {"moon21", "t2038", "stellar", "trucker"} <= set(ENGINES)
    with pytest.raises(RuntimeError, match=r"^this decision was made without a source of chance \(rng=None\)$"):
        GAME.tx(GAME.initial_state()).rng


# -- the registry's edges ------------------------------------------------------------------------------

class Ping(Command):
    type: Literal["Ping"] = "Ping"


class Pong(Command):
    type: Literal["Pong"] = "Pong"


class Rang(Event):
    type: Literal["Rang"] = "Rang"
    at: dict = {}


def test_registering_twice_says_which_type():
    rules = Rules()
    rules.decides(Ping)(lambda tx, command, actor: None)
    rules.evolves(Rang)(lambda state, event: None)
    with pytest.raises(ValueError, match="^Ping already has a decide handler$"):
        rules.decides(Ping)(lambda tx, command, actor: None)
    with pytest.raises(ValueError, match="^Rang already has an evolve handler$"):
        rules.evolves(Rang)(lambda state, event: None)


def test_an_event_type_registered_after_events_were_read_is_read_too():
    class Rung(Event):
        type: Literal["Rung"] = "Rung"

    rules = Rules()
    rules.evolves(Rang)(lambda state, event: None)
    assert rules.parse_event({"type": "Rang"}) == Rang()
    rules.evolves(Rung)(lambda state, event: None)
    assert rules.parse_event({"type": "Rung"}) == Rung()


def test_a_type_registered_after_parsing_began_parses_too():
    rules = Rules()
    rules.decides(Ping)(lambda tx, command, actor: None)
    assert rules.parse_command({"type": "Ping"}) == Ping()
    rules.decides(Pong)(lambda tx, command, actor: None)              # two types: a discriminated union
    assert rules.parse_command({"type": "Pong"}) == Pong() and rules.parse_command({"type": "Ping"}) == Ping()
    rules.evolves(Rang)(lambda state, event: None)
    assert rules.parse_event({"type": "Rang"}) == Rang()


def test_parsing_with_nothing_registered_is_an_error_of_the_engine():
    with pytest.raises(ValueError, match="^no commands are registered$"):
        Rules().parse_command({"type": "Ping"})


def test_an_upcaster_that_changes_nested_data_in_place_never_touches_the_stored_event():
    class Rung(Event):
        type: Literal["Rung"] = "Rung"
        v: int = 2
        at: dict

    rules = Rules()
    rules.evolves(Rung)(lambda state, event: None)

    def upcast(data):
        data["at"]["where"] = data["at"].pop("hex")      # careless: edits the nested dict it was given
        return data

    rules.upcasts("Rung", 1)(upcast)
    stored = {"type": "Rung", "v": 1, "at": {"hex": "h1"}}
    assert rules.parse_event(stored).at == {"where": "h1"}
    assert stored == {"type": "Rung", "v": 1, "at": {"hex": "h1"}}


def test_a_model_without_a_type_default_is_named():
    class Vague(Command):
        type: str

    with pytest.raises(TypeError, match=r"^Vague needs a `type: Literal\[...\] = ...` default$"):
        Rules().decides(Vague)


# -- the engine's edges ---------------------------------------------------------------------------------

@pytest.mark.parametrize("missing", ["initial_state", "begin", "view", "outcome"])
def test_each_core_method_is_required(missing):
    namespace = {name: getattr(TinyCounters, name) for name in ("initial_state", "begin", "view", "outcome")}
    del namespace[missing]
    from starbase_rules import Engine
    incomplete = type("Incomplete", (Engine,), {"info": INFO, "rules": Rules(), **namespace})
    with pytest.raises(TypeError, match=missing):
        incomplete()


class Choosy(TinyCounters):
    """Offers a free action beside the owed one, to see which the default bot takes."""
    info = INFO.model_copy(update={"free_actions": ("Peek",)})
    offered: list = [{"type": "Take", "count": 1}, {"type": "Peek"}]
    bot_command = TinyCounters.__mro__[1].bot_command         # the base's bot, not Tiny Counters' own

    def legal_actions(self, state, player):
        return list(self.offered)

    def parse_command(self, data):
        return data


def test_the_default_bot_prefers_an_owed_action_to_a_free_one_and_takes_a_free_one_when_alone():
    bot, state = Choosy(), GAME.initial_state()
    assert {bot.bot_command(state, "ann", random.Random(seed))["type"] for seed in range(30)} == {"Take"}
    bot.offered = [{"type": "Peek"}]
    assert bot.bot_command(state, "ann", random.Random(1)) == {"type": "Peek"}
    bot.offered = []
    assert bot.bot_command(state, "ann", random.Random(1)) is None


# -- the models ---------------------------------------------------------------------------------------

def test_a_fair_rng_is_the_contracts_source_of_chance():
    from starbase_rules.contract import Rng
    assert isinstance(FairRng(b"s"), Rng) and not isinstance(object(), Rng)


def test_declarations_commands_and_events_are_immutable():
    with pytest.raises(ValidationError):
        INFO.title = "Other"
    with pytest.raises(ValidationError):
        SPEC.default = 4
    with pytest.raises(ValidationError):
        Take(count=1).count = 2
    with pytest.raises(ValidationError):
        Rang().at = {}


def test_unset_parts_of_a_declaration_default_to_nothing():
    spec = OptionSpec(key="k", type="int", default=1, description="d")
    assert (spec.choices, spec.minimum, spec.maximum, spec.nullable) == (None, None, None, False)
    assert spec.problem(-10**9) is None and spec.problem(None) == "option 'k' needs a value"
    info = GameInfo(name="g", title="G", min_players=1, max_players=2)
    assert (info.options, info.round_field, info.over, info.realtime) == ((), "round", "over", {})
    assert (info.free_actions, info.timeout_preference) == ((), ())
    assert INFO.option("max_take").key == "max_take" and INFO.option("bonus").key == "bonus"
    assert Outcome.ranked({"ann": 1.0}).reason == "" and Outcome(standings=[]).reason == ""


def test_only_plain_and_optional_plain_types_are_options():
    for hint in ("tuple[int, None]", "int | str | None", "list[int]", tuple[int, type(None)]):
        with pytest.raises(TypeError, match=r"^a table option is a bool, int, float or str"):
            options_of(dataclass(type("Odd", (), {"__annotations__": {"x": hint}, "x": option(1, "x")})))

    @dataclass
    class Plain:
        level: str = "easy"

    with pytest.raises(TypeError, match=r"^Plain.level is not declared with option\(...\)$"):
        options_of(Plain)


def test_an_unknown_secrecy_is_named():
    from typing import ClassVar

    class Odd(Event):
        secret_fields: ClassVar[dict[str, str]] = {"card": "the dealer"}
        type: Literal["Odd"] = "Odd"
        card: int

    with pytest.raises(ValueError, match="^Odd: unknown secrecy 'the dealer'$"):
        redact_event(Odd(card=3), "ann")
