"""`make bench`: run every `benchmarks/bench_*.py` in its own process and print its figures.

Each benchmark is bounded by itself; this runner adds a hard time limit so one stuck benchmark cannot
hold the rest: LIMIT_SECONDS, or what the script declares on a line of its own, `BENCH_LIMIT_SECONDS = <n>`
(one that repeats its measurement for min / median / max takes longer). Figures are printed, never
judged: speed targets are read by people, not asserted.
"""
from __future__ import annotations

import pathlib
import re
import subprocess
import sys
import time

LIMIT_SECONDS = 240
DECLARED_LIMIT = re.compile(r"^BENCH_LIMIT_SECONDS = (\d+)\b", re.MULTILINE)


def limit_of(script: pathlib.Path) -> int:
    declared = DECLARED_LIMIT.search(script.read_text())
    return int(declared.group(1)) if declared else LIMIT_SECONDS


def main() -> int:
    root = pathlib.Path(__file__).resolve().parents[2]
    wanted = sys.argv[1:]
    scripts = sorted((root / "benchmarks").glob("bench_*.py"))
    if wanted:
        scripts = [s for s in scripts if any(w in s.stem for w in wanted)]
    failures = 0
    for script in scripts:
        print(f"=== {script.stem} ===", flush=True)
        started, limit = time.monotonic(), limit_of(script)
        try:
            done = subprocess.run([sys.executable, str(script)], cwd=root, timeout=limit)
            failures += done.returncode != 0
            status = "ok" if done.returncode == 0 else f"exit {done.returncode}"
        except subprocess.TimeoutExpired:
            failures += 1
            status = f"stopped after {limit} s"
        print(f"--- {script.stem}: {status} in {time.monotonic() - started:.1f} s\n", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
