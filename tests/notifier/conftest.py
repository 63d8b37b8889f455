import pytest

from tests.support import testjack
from tests.support.lobby_stack import http, register, stack, stack_options  # noqa: F401  (fixtures)

from tests.notifier.helpers import env_for, settings_for

testjack.register()


@pytest.fixture(autouse=True)
def notifier_names(monkeypatch, namespace, nats_url):
    """The lobby's notifier client reads the notifier's storage names from the environment: this test's."""
    for name, value in env_for(settings_for(namespace, nats_url)).items():
        if name.startswith("NOTIFIER_"):
            monkeypatch.setenv(name, value)
