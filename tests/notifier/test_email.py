"""E-mail to a real SMTP server (aiosmtpd on a loopback port): plain, and STARTTLS with a login."""
from __future__ import annotations

import email
import re
import ssl
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from notifier.kinds import GAME_ENDED, Notification
from notifier.mailer import Mailer
from notifier.preferences import Email, Preferences
from starbase_core.servers import free_port
from tests.notifier.helpers import now_iso, parts

pytestmark = pytest.mark.integration
TLS = Path(__file__).parent / "tls"


class Inbox:
    def __init__(self):
        self.messages: list[email.message.Message] = []
        self.envelopes = []

    async def handle_DATA(self, server, session, envelope):
        self.envelopes.append(envelope)
        self.messages.append(email.message_from_bytes(envelope.content))
        return "250 OK"


def login(server, session, envelope, mechanism, auth_data):
    good = isinstance(auth_data, LoginPassword) and (auth_data.login, auth_data.password) == (b"starbase", b"s3cret")
    return AuthResult(success=good)


@pytest.fixture
def inbox():
    return Inbox()


def ended() -> Notification:
    standings = [{"player": "bob", "rank": 1, "score": 20}, {"player": "ann", "rank": 2, "score": 17}]
    return Notification(GAME_ENDED, "ann", stream="game.g9", seq=40, time=now_iso(), game="testjack", table_id="g9",
                        details={"place": 2, "standings": standings})


async def test_an_email_arrives_with_the_players_place_and_a_link(nats_url, namespace, inbox):
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        mailer = Mailer("127.0.0.1", controller.port, starttls=False, sender="Starbase <noreply@starbase.test>")
        async with parts(nats_url, namespace, mailer, notifier_public_url="https://play.example") as made:
            await made.preferences.put("ann", Preferences(email=Email(address="ann@example.org", confirmed=True)))
            note = ended()
            assert await made.deliverer.deliver(note) == "handled"
            await made.deliverer.deliver(note)          # once
    finally:
        controller.stop()
    [message] = inbox.messages
    assert inbox.envelopes[0].rcpt_tos == ["ann@example.org"]
    assert message["To"] == "ann@example.org" and message["From"] == "Starbase <noreply@starbase.test>"
    assert message["Subject"] == "Your game of testjack is over: you placed 2nd (g9)"
    assert message["Starbase-Notification-Id"] == note.id and message["Message-ID"] == f"<{note.id}@notifier.starbase>"
    text = message.get_payload(decode=True).decode()
    assert "https://play.example/tables/g9" in text and "1. bob  20" in text and "2. ann  17" in text


async def test_an_email_goes_over_starttls_with_a_login_and_a_wrong_login_is_not_delivered(inbox):
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(TLS / "smtp-test-cert.pem", TLS / "smtp-test-key.pem")
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port(), tls_context=context,
                            require_starttls=True, authenticator=login, auth_require_tls=True)
    controller.start()
    try:
        def mailer(password: str) -> Mailer:
            return Mailer("localhost", controller.port, starttls=True, username="starbase", password=password,
                          sender="noreply@starbase.test", ca_file=str(TLS / "smtp-test-cert.pem"), timeout=5)
        good = mailer("s3cret")
        outcome = await good.send(good.message("ann@example.org", "Your turn", "It is your turn.", "n1"))
        assert outcome.ok, outcome.problem
        bad = mailer("wrong")
        refused = await bad.send(bad.message("ann@example.org", "Your turn", "It is your turn.", "n2"))
        assert not refused.ok and refused.retry and "wrong" not in refused.problem
        untrusted = Mailer("localhost", controller.port, starttls=True, username="starbase", password="s3cret",
                           timeout=5)
        unverified = await untrusted.send(untrusted.message("ann@example.org", "x", "y", "n3"))
        assert not unverified.ok               # a certificate nobody vouches for is not accepted
    finally:
        controller.stop()
    assert [m["Starbase-Notification-Id"] for m in inbox.messages] == ["n1"]


async def test_an_address_gets_mail_only_once_confirmed_with_the_code_mailed_to_it(
        register, nats_url, namespace, stack, inbox):
    from notifier.responder import ProbeResponder
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        mailer = Mailer("127.0.0.1", controller.port, starttls=False, sender="noreply@starbase.test")
        async with parts(nats_url, namespace, mailer) as made:
            responder = await ProbeResponder(made.nc, made.deliverer, made.settings.notifier_test_subject).start()
            try:
                ann = await register("ann")
                saved = await ann.ok(ann.http.put("/players/me/notifications", headers=ann.auth,
                                                  json={"email": {"address": "ann@example.org"}}))
                assert saved["code_sent"] is True and saved["email"]["confirmed"] is False
                [mailed] = inbox.messages
                code = re.search(r"code is (\d{8})", mailed.get_payload(decode=True).decode()).group(1)
                assert await made.deliverer.deliver(ended_for(ann.player_id)) == "not_wanted"   # not yet
                wrong = await ann.post("/players/me/notifications/email/confirm", {"code": "00000000"})
                assert (wrong.status_code, wrong.json()["error"]["code"]) == (422, "WRONG_CODE")
                done = await ann.ok(ann.post("/players/me/notifications/email/confirm", {"code": code}))
                assert done["email"]["confirmed"] is True
                assert await made.deliverer.deliver(ended_for(ann.player_id)) == "handled"
                again = await ann.ok(ann.http.put("/players/me/notifications", headers=ann.auth,
                                                  json={"email": {"address": "ann@example.org", "events": ["invited"]}}))
                assert again["code_sent"] is None and again["email"]["confirmed"] is True   # same address: kept
                moved = await ann.ok(ann.http.put("/players/me/notifications", headers=ann.auth,
                                                  json={"email": {"address": "ann@example.net"}}))
                assert moved["email"]["confirmed"] is False                                 # a new one: again
            finally:
                await responder.stop()
    finally:
        controller.stop()
    assert [m["To"] for m in inbox.messages] == ["ann@example.org", "ann@example.org", "ann@example.net"]
    assert inbox.messages[1]["Subject"].startswith("Your game of testjack is over")


async def test_a_confirmation_code_is_spent_after_five_wrong_tries(register, stack):
    ann = await register("ann")
    await ann.ok(ann.http.put("/players/me/notifications", headers=ann.auth, json={"email": {"address": "a@example.org"}}))
    codes = [(await ann.post("/players/me/notifications/email/confirm", {"code": f"{n:08d}"})).json()["error"]["code"]
             for n in range(6)]
    assert codes == ["WRONG_CODE"] * 5 + ["CODE_EXPIRED"]


def ended_for(player: str) -> Notification:
    return Notification(GAME_ENDED, player, stream="game.g9", seq=40, time=now_iso(), game="testjack", table_id="g9",
                        details={"place": 1, "standings": [{"player": player, "rank": 1, "score": 3}]})
