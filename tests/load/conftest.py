import pytest

from tests.support.stack import local_stack
from tests.support import testjack

testjack.register()


@pytest.fixture
async def stack(nats_url, redis_url, namespace):
    async with local_stack(nats_url, redis_url, namespace, scoring=False) as running:
        yield running
