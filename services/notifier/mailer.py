"""E-mail over SMTP with the standard library (`smtplib`, `email`), run in a worker thread.

Settings: NOTIFIER_SMTP_HOST (empty: no e-mail), _PORT, _STARTTLS (upgrade, port 587) or _SSL (TLS
from the first byte, port 465), _USERNAME and _PASSWORD (AUTH after TLS), _FROM, _TIMEOUT, and
_CA_FILE to trust a private certificate authority. Certificates are always verified. A 5xx answer
(say, an unknown mailbox) is final; anything else (a 4xx, a dropped connection) is tried again.
Outcomes never quote the server, which may echo the address or our login.
"""
from __future__ import annotations

import asyncio
import smtplib
import ssl
from email.message import EmailMessage
from email.utils import formatdate

from notifier.webhook import Outcome


class Mailer:
    def __init__(self, host: str = "", port: int = 587, *, starttls: bool = True, use_ssl: bool = False,
                 username: str = "", password: str = "", sender: str = "", timeout: float = 20.0,
                 ca_file: str = ""):
        self.host, self.port, self.starttls, self.use_ssl = host, port, starttls, use_ssl
        self.username, self._password, self.sender, self.timeout = username, password, sender, timeout
        self._context = ssl.create_default_context(cafile=ca_file or None)

    @property
    def enabled(self) -> bool:
        return bool(self.host)

    def message(self, to: str, subject: str, text: str, notification_id: str) -> EmailMessage:
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = self.sender, to, subject
        message["Date"] = formatdate(localtime=False)
        message["Message-ID"] = f"<{notification_id}@notifier.starbase>"
        message["Starbase-Notification-Id"] = notification_id
        message.set_content(text)
        return message

    async def send(self, message: EmailMessage) -> Outcome:
        try:
            await asyncio.to_thread(self._send, message)
        except smtplib.SMTPRecipientsRefused:
            return Outcome(False, retry=False, problem="the mail server refused the address")
        except smtplib.SMTPAuthenticationError:
            return Outcome(False, retry=True, problem="the mail server refused our login")
        except smtplib.SMTPResponseException as answer:
            final = 500 <= answer.smtp_code < 600
            return Outcome(False, retry=not final, problem=f"the mail server answered {answer.smtp_code}")
        except (smtplib.SMTPException, OSError) as error:
            return Outcome(False, retry=True, problem=f"could not reach the mail server ({type(error).__name__})")
        return Outcome(True)

    def _send(self, message: EmailMessage) -> None:
        if self.use_ssl:
            client: smtplib.SMTP = smtplib.SMTP_SSL(self.host, self.port, timeout=self.timeout, context=self._context)
        else:
            client = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
        with client as smtp:
            smtp.ehlo()
            if self.starttls and not self.use_ssl:
                smtp.starttls(context=self._context)
                smtp.ehlo()
            if self.username:
                smtp.login(self.username, self._password)
            smtp.send_message(message)
