"""`python -m adjudicator` runs on uvloop (what bench_adjudicator_cpu measured cheaper per command), or on
asyncio's loop when asked; gRPC and the JetStream store work the same on it (test_grpc.py's children,
started as `python -m adjudicator` is, run on it: commands, refusals, a replica killed mid-stream, SIGTERM)."""
from __future__ import annotations

import asyncio

import pytest

from adjudicator.__main__ import run


async def loop_module() -> str:
    return type(asyncio.get_running_loop()).__module__


def test_the_adjudicator_runs_on_uvloop_by_default(monkeypatch):
    monkeypatch.delenv("ADJUDICATOR_EVENT_LOOP", raising=False)
    seen = []

    async def main() -> None:
        seen.append(await loop_module())

    run(main())
    assert seen and seen[0].startswith("uvloop"), seen


def test_asyncio_s_own_loop_when_asked(monkeypatch):
    monkeypatch.setenv("ADJUDICATOR_EVENT_LOOP", "asyncio")
    seen = []

    async def main() -> None:
        seen.append(await loop_module())

    run(main())
    assert seen and seen[0].startswith("asyncio"), seen


def test_an_unknown_loop_is_refused_with_the_choices_and_nothing_runs(monkeypatch):
    monkeypatch.setenv("ADJUDICATOR_EVENT_LOOP", "trio")
    ran = []

    async def main() -> None:
        ran.append(True)

    with pytest.raises(SystemExit, match="uvloop, asyncio, not 'trio'"):
        run(main())
    assert ran == []
