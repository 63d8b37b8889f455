"""`python -m adjudicator` runs on uvloop (what bench_adjudicator_cpu measured cheaper per command), or on
asyncio's loop when asked; gRPC and the JetStream store work the same on it (test_grpc.py's children,
started as `python -m adjudicator` is, run on it: commands, refusals, a replica killed mid-stream, SIGTERM)."""
from __future__ import annotations

import asyncio

import pytest

from adjudicator.__main__ import run


@pytest.mark.parametrize("setting, loop", [(None, "uvloop"), ("asyncio", "asyncio"), ("uvloop", "uvloop")])
def test_the_loop_it_runs_on(monkeypatch, setting, loop):
    if setting is None:     # the default
        monkeypatch.delenv("ADJUDICATOR_EVENT_LOOP", raising=False)
    else:
        monkeypatch.setenv("ADJUDICATOR_EVENT_LOOP", setting)
    seen = []

    async def main() -> None:
        seen.append(type(asyncio.get_running_loop()).__module__)

    run(main())
    assert seen and seen[0].startswith(loop), seen


def test_an_unknown_loop_is_refused_with_the_choices_and_nothing_runs(monkeypatch):
    monkeypatch.setenv("ADJUDICATOR_EVENT_LOOP", "trio")
    ran = []

    async def main() -> None:
        ran.append(True)

    with pytest.raises(SystemExit, match="uvloop, asyncio, not 'trio'"):
        run(main())
    assert ran == []
