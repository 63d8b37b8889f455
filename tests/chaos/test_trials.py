"""The bounded subset of `make chaos`, run by `make test`: the stack as separate processes (as
`make run` starts it), load through the public APIs, one fault per trial, and the checker's verdict.

Each trial here must PASS: nothing acknowledged lost, nothing duplicated, nothing refused applied,
every finished game audited and scored once, and the stack whole again after every fault.
"""
from __future__ import annotations

import pytest

from starbase_chaos.__main__ import QUICK, render
from starbase_chaos.catalogue import TRIALS, select
from starbase_chaos.checker import Verdict
from starbase_chaos.trials import FAIL, KNOWN, PASS, KnownIssue, Trial, TrialResult, run_trial

QUICK_TRIALS = select(quick=True)


@pytest.mark.integration
@pytest.mark.timeout(240)
@pytest.mark.parametrize("trial", QUICK_TRIALS, ids=[t.name for t in QUICK_TRIALS])
async def test_a_quick_trial_loses_nothing_and_recovers(trial, tmp_path):
    result = await run_trial(trial, tmp_path, QUICK)
    print("\n" + render([result], result.seconds))
    assert result.status == PASS, result.problems + result.verdict.examples
    assert result.verdict.acknowledged > 0 and len(result.recoveries) == QUICK.repeats


def test_the_quick_subset_covers_scoring_redis_and_nats_and_names_are_checked():
    assert {t.name for t in QUICK_TRIALS} == {"kill-scoring", "kill-nats", "wipe-redis"}
    assert len({t.name for t in TRIALS}) == len(TRIALS)
    with pytest.raises(ValueError, match="no trial called nope"):
        select(["nope"])


async def _nothing(stack) -> None:
    return None


def result_with(known: KnownIssue | None, recoveries=(1.0,), **counts) -> TrialResult:
    return TrialResult(Trial("t", "nothing", _nothing, known_issue=known), Verdict(**counts), list(recoveries))


def test_a_known_issue_alone_reads_known_and_anything_else_fails():
    issue = KnownIssue("refused_but_applied", "being fixed")
    assert result_with(issue, refused_but_applied=2).status == KNOWN
    assert result_with(issue).status == PASS
    assert result_with(issue, refused_but_applied=2, lost=1).status == FAIL
    assert result_with(None, refused_but_applied=2).status == FAIL
    assert result_with(None, recoveries=(1.0, None)).status == FAIL
