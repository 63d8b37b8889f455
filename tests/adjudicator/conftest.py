import pytest

from tests.support import testjack

testjack.register()


@pytest.fixture
def game_id(new_name) -> str:
    return new_name("g")
