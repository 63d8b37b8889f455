"""Reading spans and scraping metrics ports in the observability tests."""
from __future__ import annotations

import asyncio

import httpx
from prometheus_client.parser import text_string_to_metric_families

WAIT_SECONDS = 30.0     # a bound on a hang, never a timing assertion


def trace_of(span) -> str:
    return format(span.context.trace_id, "032x")


def in_trace(exporter, trace_id: str) -> list:
    return [span for span in exporter.get_finished_spans() if trace_of(span) == trace_id]


async def until(condition, what: str):
    """Poll `condition()` (sync or async) until it returns something truthy; fail after WAIT_SECONDS."""
    async def poll():
        while True:
            found = condition()
            if asyncio.iscoroutine(found):
                found = await found
            if found:
                return found
            await asyncio.sleep(0.05)
    try:
        return await asyncio.wait_for(poll(), WAIT_SECONDS)
    except asyncio.TimeoutError:
        raise AssertionError(f"never: {what}") from None


async def scrape(port: int) -> dict[str, float]:
    """One scrape of a metrics port: {sample name with its labels: value}."""
    async with httpx.AsyncClient(timeout=10) as client:
        answer = await client.get(f"http://127.0.0.1:{port}/metrics")
    assert answer.status_code == 200, answer.text
    samples = {}
    for family in text_string_to_metric_families(answer.text):
        for sample in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
            samples[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    return samples
