"""`python -m starbase_chaos` (`make chaos`): run the trials and print the table.

    python -m starbase_chaos                       # every trial
    python -m starbase_chaos --quick               # the bounded subset `make test` runs
    python -m starbase_chaos --trials kill-nats,wipe-redis --json chaos.json

Exit status 0 when every trial passed (KNOWN counts as passed unless `--strict`), 1 otherwise. Each
trial's work directory (process logs, NATS and Redis files) is kept under `--workdir` when it did
not pass, and deleted when it did.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import time
from pathlib import Path

from starbase_chaos.catalogue import select
from starbase_chaos.trials import FAIL, KNOWN, PASS, Scale, TrialResult, run_trial

QUICK = Scale(warmup=5.0, gap=3.0, repeats=2)


def render(results: list[TrialResult], seconds: float) -> str:
    header = (f"{'trial':<18} {'fault':<48} {'n':>2} {'acked':>6} {'unans':>5} {'lost':>4} {'dup':>3} {'ref+app':>7} "
              f"{'audit ok/bad':>12} {'chain':>5} {'scored/ended':>12} {'recovery s':>10} {'secs':>5}  verdict")
    lines = [header, "-" * len(header)]
    for result in results:
        v = result.verdict
        recoveries = [r for r in result.recoveries if r is not None]
        recovery = f"{max(recoveries):.1f}" if recoveries else "-"
        if any(r is None for r in result.recoveries):
            recovery = "never"
        lines.append(
            f"{result.trial.name:<18} {result.trial.fault[:48]:<48} {len(result.recoveries):>2} {v.acknowledged:>6} "
            f"{v.unanswered:>5} "
            f"{v.lost:>4} {v.duplicated:>3} {v.refused_but_applied:>7} "
            f"{f'{v.audit_passed}/{v.audit_failed}':>12} {v.chain_breaks:>5} "
            f"{f'{v.scored_once}/{v.finished}':>12} {recovery:>10} {result.seconds:>5.0f}  {result.status}")
    lines.append(f"\n{len(results)} trials in {seconds:.0f} s: "
                 f"{sum(r.status == PASS for r in results)} passed, {sum(r.status == KNOWN for r in results)} "
                 f"known issue, {sum(r.status == FAIL for r in results)} failed")
    for result in results:
        if result.status != PASS:
            lines.append(f"\n{result.trial.name}: {result.status}: {'; '.join(result.problems)}")
            if result.trial.known_issue and result.status == KNOWN:
                lines.append(f"  known issue: {result.trial.known_issue.why}")
            lines.extend(f"  e.g. {example}" for example in result.verdict.examples)
    return "\n".join(lines)


def figures(results: list[TrialResult], seconds: float) -> dict:
    return {"seconds": round(seconds, 1), "trials": [
        {"name": r.trial.name, "fault": r.trial.fault, "status": r.status, "problems": r.problems,
         "recoveries_s": [None if x is None else round(x, 2) for x in r.recoveries], "seconds": round(r.seconds, 1),
         **{k: v for k, v in r.verdict.figures().items()}} for r in results]}


async def run(trial_names: list[str] | None, quick: bool, workdir: Path) -> tuple[list[TrialResult], float]:
    began = time.monotonic()
    results = []
    for trial in select(trial_names, quick):
        print(f"  {trial.name}: {trial.fault} …", flush=True)
        result = await run_trial(trial, workdir, QUICK if quick else Scale())
        print(f"  {trial.name}: {result.status} in {result.seconds:.0f} s", flush=True)
        if result.status == PASS:
            shutil.rmtree(workdir / trial.name, ignore_errors=True)
        results.append(result)
    return results, time.monotonic() - began


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m starbase_chaos", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the bounded subset (what make test runs)")
    parser.add_argument("--trials", default="", help="comma-separated trial names (default: all)")
    parser.add_argument("--workdir", default=".chaos", help="where each trial keeps its files (default .chaos)")
    parser.add_argument("--json", default="", help="also write the figures to this file")
    parser.add_argument("--strict", action="store_true", help="a known issue fails the run too")
    args = parser.parse_args(argv)
    workdir = Path(args.workdir) / time.strftime("%Y%m%d-%H%M%S")
    try:
        results, seconds = asyncio.run(run([n for n in args.trials.split(",") if n] or None, args.quick, workdir))
    except ValueError as problem:
        print(f"starbase_chaos: {problem}", file=sys.stderr)
        return 2
    print(render(results, seconds))
    if args.json:
        Path(args.json).write_text(json.dumps(figures(results, seconds), indent=2))
    failed = {FAIL, KNOWN} if args.strict else {FAIL}
    return 1 if any(r.status in failed for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
