"""`kit18xx.or_steps`: an operating turn's steps in order, and the questions rules ask about them."""
import dataclasses

import pytest

from kit18xx.or_steps import StepSequence

STEPS = StepSequence(("tiles", "token", "run", "buy"), only_in={"LayTile": ("tiles",), "PlaceDepot": ("tiles", "token")})


def test_each_step_is_followed_by_the_next_and_the_last_by_the_end_of_the_turn():
    assert [STEPS.after(s) for s in STEPS.names] == ["token", "run", "buy", None]
    assert STEPS.first == "tiles"
    assert [STEPS.is_last(s) for s in STEPS.names] == [False, False, False, True]


def test_before_compares_positions_in_the_turn():
    assert STEPS.before("tiles", "run") and STEPS.before("token", "run")
    assert not STEPS.before("run", "run") and not STEPS.before("buy", "run")


@pytest.mark.parametrize("names", [(), ("tiles", "tiles")])
def test_a_sequence_needs_distinct_steps(names):
    with pytest.raises(ValueError) as refused:
        StepSequence(names)
    assert str(refused.value) == f"an operating turn needs distinct steps, not {names!r}"


def test_a_sequence_is_a_fixed_declaration():
    with pytest.raises(dataclasses.FrozenInstanceError):
        STEPS.names = ("run",)


def test_an_unknown_step_is_an_error_naming_it():
    with pytest.raises(ValueError) as refused:
        STEPS.after("dividends")
    assert str(refused.value) == "'dividends' is not a step of this operating turn ('tiles', 'token', 'run', 'buy')"
    with pytest.raises(ValueError, match="'dividends' is not a step"):
        STEPS.before("tiles", "dividends")


def test_a_command_bound_to_steps_is_allowed_in_those_only_and_any_other_command_everywhere():
    assert [STEPS.allows(s, "LayTile") for s in STEPS.names] == [True, False, False, False]
    assert [STEPS.allows(s, "PlaceDepot") for s in STEPS.names] == [True, True, False, False]
    assert all(STEPS.allows(s, "Pass") for s in STEPS.names)


def test_a_command_bound_to_an_unknown_step_is_an_error():
    with pytest.raises(ValueError) as refused:
        StepSequence(("tiles", "run"), only_in={"LayTile": ("tile",)})
    assert str(refused.value) == "'tile' is not a step of this operating turn ('tiles', 'run')"
