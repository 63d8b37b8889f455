"""No log line of the notifier or of the lobby's notification routes holds a webhook secret, a URL's
password, path or query, an SMTP password or an e-mail address: a run through saving, testing,
retrying, giving up and mailing, with every captured line scanned afterwards."""
from __future__ import annotations

import logging

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult

from notifier.mailer import Mailer
from notifier.preferences import Email, Preferences, Webhook
from notifier.responder import ProbeResponder
from starbase_core.servers import free_port
from tests.notifier.helpers import a_turn, parts
from tests.notifier.receiver import Receiver

pytestmark = pytest.mark.integration


class Refusing:
    async def handle_DATA(self, server, session, envelope):
        return "250 OK"


async def test_a_run_through_every_channel_leaves_no_secret_in_any_log_line(
        register, nats_url, namespace, stack, caplog, capfd):
    caplog.set_level(logging.DEBUG)
    receiver = await Receiver(statuses=[500]).start()
    smtp = Controller(Refusing(), hostname="127.0.0.1", port=free_port(), auth_require_tls=False,
                      authenticator=lambda *args: AuthResult(success=False))
    smtp.start()
    host = receiver.url.split("//", 1)[1].split("/", 1)[0]
    url = f"http://hookuser:URLPASSWORD99@{host}/hooks/PATHTOKEN77?key=QUERYKEY55"
    secrets = {"URLPASSWORD99", "PATHTOKEN77", "QUERYKEY55", "SMTPPASSWORD33", "ann.private@example.org"}
    try:
        ann = await register("ann")
        saved = await ann.ok(ann.http.put("/players/me/notifications", headers=ann.auth, json={
            "webhook": {"url": url}, "email": {"address": "ann.private@example.org"}}))
        secrets.add(saved["webhook_secret"])
        mailer = Mailer("127.0.0.1", smtp.port, starttls=False, username="starbase", password="SMTPPASSWORD33",
                        timeout=5)
        async with parts(nats_url, namespace, mailer, notifier_attempts=2) as made:
            responder = await ProbeResponder(made.nc, made.deliverer, made.settings.notifier_test_subject).start()
            try:
                await ann.ok(ann.post("/players/me/notifications/test"))        # answered 500
            finally:
                await responder.stop()
            await made.deliverer.deliver(a_turn(ann.player_id, seq=3))          # 200 after the 500 above
            await made.preferences.put("bob", Preferences(
                webhook=Webhook(url=url, secret="whsec_BOBSECRET"),
                email=Email(address="ann.private@example.org", confirmed=True)))
            secrets.add("whsec_BOBSECRET")
            receiver.default = 503
            await made.deliverer.deliver(a_turn("bob", seq=4))                   # dead letters on both channels
            dead = await made.dead.list("bob")
    finally:
        smtp.stop()
        await receiver.stop()
    assert {d["channel"] for d in dead} == {"webhook", "email"}
    assert all(secret not in str(dead) for secret in secrets)
    lines = [r.getMessage() for r in caplog.records if not r.name.startswith(("httpx", "httpcore"))]
    captured = "\n".join(lines) + "".join(capfd.readouterr())
    # Logging was on (info lines too when this file runs alone; in the whole suite another test may have
    # set structlog to warnings first, and its loggers are cached: then only warnings are there to scan).
    assert "notification_dead_letter" in captured
    assert [s for s in secrets if s in captured] == []
