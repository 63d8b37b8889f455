import pytest

from tests.support import testjack
from tests.support.lobby_stack import http, register, stack, stack_options  # noqa: F401  (fixtures)

testjack.register()


@pytest.fixture
def stack_options() -> dict:  # noqa: F811  (the fuzz needs no scoring service)
    return {"scoring": False}
