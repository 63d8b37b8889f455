"""`make bench`: run every `benchmarks/bench_*.py` in its own process and print its figures.

Each benchmark is bounded by itself; this runner adds a hard time limit so one stuck benchmark cannot
hold the rest. Figures are printed, never judged: speed targets are read by people, not asserted.
"""
from __future__ import annotations

import pathlib
import subprocess
import sys
import time

LIMIT_SECONDS = 240


def main() -> int:
    root = pathlib.Path(__file__).resolve().parents[2]
    wanted = sys.argv[1:]
    scripts = sorted((root / "benchmarks").glob("bench_*.py"))
    if wanted:
        scripts = [s for s in scripts if any(w in s.stem for w in wanted)]
    failures = 0
    for script in scripts:
        print(f"=== {script.stem} ===", flush=True)
        started = time.monotonic()
        try:
            done = subprocess.run([sys.executable, str(script)], cwd=root, timeout=LIMIT_SECONDS)
            failures += done.returncode != 0
            status = "ok" if done.returncode == 0 else f"exit {done.returncode}"
        except subprocess.TimeoutExpired:
            failures += 1
            status = f"stopped after {LIMIT_SECONDS} s"
        print(f"--- {script.stem}: {status} in {time.monotonic() - started:.1f} s\n", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
