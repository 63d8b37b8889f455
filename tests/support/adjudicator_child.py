"""Runs the real adjudicator (`adjudicator.__main__.main`) in a child process, with the test engine
registered. With STARBASE_TEST_CRASH_ON=<command id> the process exits abruptly (os._exit, no cleanup,
no reply) right after the append of that command has succeeded: a kill between the append and the reply."""
from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root

from tests.support import testjack  # noqa: E402

testjack.register()

from adjudicator.__main__ import main, run  # noqa: E402

CRASH_ON = os.environ.get("STARBASE_TEST_CRASH_ON")
CRASH_EXIT_CODE = 17


class ExitAfterAppend:
    def __init__(self, store):
        self._store = store

    def __getattr__(self, name):
        return getattr(self._store, name)

    async def append(self, stream, events, *, expected_seq, command_id=None):
        stored = await self._store.append(stream, events, expected_seq=expected_seq, command_id=command_id)
        if command_id == CRASH_ON:
            os._exit(CRASH_EXIT_CODE)
        return stored


if __name__ == "__main__":
    run(main(wrap_store=ExitAfterAppend if CRASH_ON else None))     # on the loop production runs on
