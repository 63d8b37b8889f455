import httpx
import pytest

from lobby.testing import ApiPlayer, local_stack
from tests.support import testjack

testjack.register()


@pytest.fixture
async def stack(nats_url, redis_url, namespace):
    async with local_stack(nats_url, redis_url, namespace, scoring=False) as running:
        yield running


@pytest.fixture
async def http(stack):
    async with httpx.AsyncClient(base_url=stack.http, timeout=20) as client:
        yield client


@pytest.fixture
def register(http):
    async def make(name: str) -> ApiPlayer:
        return await ApiPlayer.register(http, name)
    return make
