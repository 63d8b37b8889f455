"""`make bench`'s runner: a benchmark's own time limit, where it declares one."""
from __future__ import annotations

from pathlib import Path

from starbase_cli.bench import LIMIT_SECONDS, limit_of

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def test_a_benchmark_declares_a_longer_limit_or_gets_the_runners(tmp_path):
    declared = tmp_path / "bench_long.py"
    declared.write_text('"""Three rounds."""\nROUNDS = 3\nBENCH_LIMIT_SECONDS = 1200      # why\n')
    plain = tmp_path / "bench_short.py"
    plain.write_text('"""Bounded by itself."""\nSECONDS = 5\n')
    assert limit_of(declared) == 1200
    assert limit_of(plain) == LIMIT_SECONDS


def test_the_capacity_benchmark_has_time_for_its_three_rounds():
    # 3 rounds of 21Moon and Testjack at 1 and 2 replicas took 7 minutes on 2 cores.
    assert limit_of(BENCHMARKS / "bench_capacity.py") >= 900
