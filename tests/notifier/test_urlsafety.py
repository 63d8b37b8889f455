"""Webhook URLs: only http(s) to public addresses (loopback only when allowed); logs see the host only."""
from __future__ import annotations

import pytest

from notifier.urlsafety import UnsafeUrl, describe, resolve
from notifier.webhook import WebhookSender


@pytest.mark.parametrize("url, code", [
    ("ftp://example.org/hook", "WEBHOOK_URL_SCHEME"),
    ("file:///etc/passwd", "WEBHOOK_URL_SCHEME"),
    ("javascript:alert(1)", "WEBHOOK_URL_SCHEME"),
    ("gopher://127.0.0.1:6379/_FLUSHALL", "WEBHOOK_URL_SCHEME"),
    ("http:///no-host", "WEBHOOK_URL_INVALID"),
    ("http://exa mple.org/", "WEBHOOK_URL_INVALID"),
    ("http://example.org:99999/", "WEBHOOK_URL_INVALID"),
    ("https://example.org/" + "a" * 2100, "WEBHOOK_URL_INVALID"),
    ("http://10.0.0.7/hook", "WEBHOOK_URL_PRIVATE"),
    ("http://192.168.1.1/", "WEBHOOK_URL_PRIVATE"),
    ("http://172.16.5.4/", "WEBHOOK_URL_PRIVATE"),
    ("http://169.254.169.254/latest/meta-data/", "WEBHOOK_URL_PRIVATE"),    # cloud metadata
    ("http://100.64.0.1/", "WEBHOOK_URL_PRIVATE"),                          # carrier-grade NAT
    ("http://0.0.0.0:8000/", "WEBHOOK_URL_PRIVATE"),
    ("http://127.0.0.1:4222/", "WEBHOOK_URL_PRIVATE"),                      # loopback, not allowed here
    ("http://localhost:6379/", "WEBHOOK_URL_PRIVATE"),
    ("http://2130706433/", "WEBHOOK_URL_PRIVATE"),                          # 127.0.0.1 as one number
    ("http://[::1]:8000/", "WEBHOOK_URL_PRIVATE"),
    ("http://[::ffff:127.0.0.1]/", "WEBHOOK_URL_PRIVATE"),                  # IPv4-mapped loopback
    ("http://[::ffff:10.0.0.1]/", "WEBHOOK_URL_PRIVATE"),
    ("http://[fc00::1]/", "WEBHOOK_URL_PRIVATE"),
    ("http://[fe80::1]/", "WEBHOOK_URL_PRIVATE"),
    ("http://224.0.0.1/", "WEBHOOK_URL_PRIVATE"),
    ("http://no-such-host.invalid/", "WEBHOOK_URL_UNRESOLVED"),
])
async def test_a_url_the_notifier_must_not_call_is_refused_with_its_reason(url, code):
    with pytest.raises(UnsafeUrl) as refused:
        await resolve(url, allow_loopback=False)
    assert refused.value.code == code


async def test_loopback_is_allowed_only_when_the_operator_says_so_and_private_never():
    assert (await resolve("http://127.0.0.1:9/hook", allow_loopback=True)).address == "127.0.0.1"
    assert (await resolve("http://[::1]:9/", allow_loopback=True)).address == "::1"
    for private in ("http://10.1.2.3/", "http://169.254.169.254/", "http://192.168.0.1/"):
        with pytest.raises(UnsafeUrl):
            await resolve(private, allow_loopback=True)


async def test_a_public_address_is_allowed_and_pinned_with_its_name_kept_for_host_and_tls():
    target = await resolve("https://user:pw@93.184.215.14:8443/hooks/x?t=1", allow_loopback=False)
    assert target.pinned_url == "https://93.184.215.14:8443/hooks/x?t=1"
    assert target.host_header == "93.184.215.14:8443" and target.credentials == ("user", "pw")


async def test_the_sender_refuses_a_private_address_at_send_time_without_retrying():
    sender = WebhookSender(allow_loopback=False)
    try:
        outcome = await sender.send("http://10.0.0.1/hook", "secret", "n1", "your_turn", b"{}")
    finally:
        await sender.close()
    assert not outcome.ok and not outcome.retry and "public" in outcome.problem


def test_logs_name_a_webhook_by_scheme_host_and_port_only():
    assert describe("https://bob:hunter2@hooks.example.org:8443/T0K3N/path?key=abc") == \
        "https://hooks.example.org:8443"
    assert describe("http://[::1]:80/x") == "http://[::1]:80"
