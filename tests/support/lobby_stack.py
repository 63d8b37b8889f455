"""Fixtures for tests that talk to a whole in-process stack (lobby, adjudicator, scoring) over HTTP.

A conftest imports them; one that needs another stack overrides `stack_options`.
"""
import httpx
import pytest

from tests.support.stack import ApiPlayer, local_stack


@pytest.fixture
def stack_options() -> dict:
    return {}


@pytest.fixture
async def stack(nats_url, redis_url, namespace, stack_options):
    async with local_stack(nats_url, redis_url, namespace, **stack_options) as running:
        yield running


@pytest.fixture
async def http(stack):
    async with httpx.AsyncClient(base_url=stack.http, timeout=30) as client:
        yield client


@pytest.fixture
def register(http):
    async def make(name: str) -> ApiPlayer:
        return await ApiPlayer.register(http, name)
    return make
