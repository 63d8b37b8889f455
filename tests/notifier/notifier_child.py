"""Runs the real notifier (`notifier.__main__.main`, as `python -m notifier` does) in a child process,
with the test engine registered."""
from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root

from tests.support import testjack  # noqa: E402

testjack.register()

from notifier.__main__ import main  # noqa: E402

if __name__ == "__main__":
    asyncio.run(main([]))
