"""The check's verdict, where a reader of the run looks: printed, in Locust's statistics (`CHECK` rows:
a failure for anything that must be zero and is not), in the HTML report (a section at its top) and
beside it (`<report>.check.json`, `.check.txt`).
"""
from __future__ import annotations

import html
import json
import subprocess
import sys
from pathlib import Path

from starbase_load.metrics import CHECK, Metrics
from starbase_load.options import Settings

CHECK_TIMEOUT = 900.0
ROWS = (   # (CHECK row, the verdict's count that must be zero, what a non-zero count means)
    ("acknowledged stored once", "lost", "acknowledged but not in the store at its seqs"),
    ("no command stored twice", "duplicated", "command ids stored by two appends"),
    ("nothing refused stored", "refused_but_applied", "refused but in the store"),
    ("finished games pass the audit", "audit_failed", "finished games failing the audit"),
    ("hash chains hold", "chain_breaks", "games whose hash chain breaks"),
    ("finished games scored once", "not_scored_once", "finished games not scored exactly once"),
)


def run_check(settings: Settings, files: list[Path]) -> dict:
    """The verdict of `python -m starbase_load.check` on `files` (its own process: asyncio, not gevent)."""
    command = [sys.executable, "-m", "starbase_load.check", "--nats", settings.nats, "--stream", settings.stream,
               "--prefix", settings.prefix, "--scoring-prefix", settings.scoring_prefix, *map(str, files)]
    if settings.redis:
        command += ["--redis", settings.redis]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=CHECK_TIMEOUT)
    except subprocess.TimeoutExpired:
        return {"error": f"the check took over {CHECK_TIMEOUT:.0f} s"}
    lines = done.stdout.strip().splitlines()
    try:
        return json.loads(lines[-1])
    except (IndexError, ValueError):
        return {"error": f"the check ended with {done.returncode}: {done.stderr.strip()[-400:]}"}


def passed(verdict: dict) -> bool:
    return "error" not in verdict and not verdict.get("failures")


def render(verdict: dict) -> str:
    if "error" in verdict:
        return f"Starbase check: NOT CHECKED: {verdict['error']}"
    lines = [
        f"Starbase check ({verdict['journals']} journal(s), {verdict['games']} games): "
        f"{'PASS' if passed(verdict) else 'FAIL: ' + ', '.join(verdict['failures'])}",
        f"  acknowledged {verdict['acknowledged']}, refused {verdict['refused']}, unanswered {verdict['unanswered']}"
        f" (an unanswered one may or may not be stored: either is fine, once)",
        f"  lost {verdict['lost']}, duplicated {verdict['duplicated']}, refused but applied "
        f"{verdict['refused_but_applied']}, chain breaks {verdict['chain_breaks']}",
        f"  finished games {verdict['finished']}: audit passed {verdict['audit_passed']}, failed {verdict['audit_failed']}"
        + (f"; scored once {verdict['scored_once']}, not {verdict['not_scored_once']}"
           if verdict.get("scoring_checked") else "; scoring not checked"),
    ]
    lines += [f"  e.g. {example}" for example in verdict.get("examples", [])]
    return "\n".join(lines)


def to_statistics(metrics: Metrics, verdict: dict) -> None:
    if "error" in verdict:
        metrics.sample(CHECK, "store checked", 0.0, verdict["error"][:200])
        return
    for row, count, meaning in ROWS:
        if count == "not_scored_once" and not verdict.get("scoring_checked"):
            continue
        value = verdict.get(count, 0)
        metrics.sample(CHECK, row, 0.0, f"{value} {meaning}" if value else None)


def write_beside(stem: Path, verdict: dict) -> list[Path]:
    stem.parent.mkdir(parents=True, exist_ok=True)
    written = [stem.with_name(stem.name + ".check.json"), stem.with_name(stem.name + ".check.txt")]
    written[0].write_text(json.dumps(verdict, indent=2))
    written[1].write_text(render(verdict) + "\n")
    return written


def add_to_html(report: Path, verdict: dict) -> bool:
    """Put the verdict at the top of Locust's HTML report (written before the run's end hooks)."""
    if not report.exists():
        return False
    page = report.read_text(encoding="utf-8")
    colour = "#1b5e20" if passed(verdict) else "#b71c1c"
    section = (f'<section id="starbase-check" style="font-family:monospace;white-space:pre-wrap;padding:12px;'
               f'margin:8px;border:2px solid {colour};color:{colour}">{html.escape(render(verdict))}</section>')
    at = page.find("<body")
    if at < 0:
        return False
    at = page.index(">", at) + 1
    report.write_text(page[:at] + section + page[at:], encoding="utf-8")
    return True
