"""Notification settings of the logged-in player (docs/notifier.md): the lobby's side of the notifier.

Everything goes through `notifier.client` (the only part of the notifier the lobby may import). The
webhook secret is in the answer to the PUT that drew it, and never again. A new e-mail address gets a
code by mail, and no notification until the player confirms it with that code. Saving, testing and
confirming count against the `notifications` limit (a save resolves a host name; a test makes the notifier call out).
`attach` connects the client when the lobby starts and registers its eraser, so `DELETE /players/me`
forgets the player's notification settings and dead letters with the rest of their personal data.
"""
from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, Field

from notifier.client import (
    ConfirmationRefused, NotifierClient, NotifierUnavailable, PreferencesIn, PreferencesOut, UnsafeUrl,
)

from lobby.dependencies import Player
from lobby.exceptions import Invalid, Unavailable
from lobby.router import ERRORS, MAX_POSITION, Lobby

router = APIRouter(responses=ERRORS, tags=["notifications"])


class SavedOut(PreferencesOut):
    webhook_secret: str | None = Field(
        default=None, description="the secret to verify our signatures with: shown this once (when a webhook is "
                                  "first set, or rotate_secret was asked); store it now")
    code_sent: bool | None = Field(
        default=None, description="a new or unconfirmed address was sent a confirmation code (false: the mail "
                                  "could not go out; save again later); null: nothing to confirm")


class ConfirmIn(BaseModel):
    code: str = Field(min_length=1, max_length=32, description="the code mailed to your address")


class TestOut(BaseModel):
    delivered: bool
    id: str | None = None
    status: int | None = Field(default=None, description="your receiver's HTTP status")
    problem: str | None = None


class DeadLetterOut(BaseModel):
    dead_letter_id: int
    id: str
    kind: str
    channel: str
    stream: str
    seq: int
    table_id: str
    attempts: int
    problem: str
    target: str = Field(description="where it went: scheme, host and port only")
    time: str


async def attach(app, runtime) -> NotifierClient:
    """Connect the notifier client on the lobby's NATS connection; erasing a player erases here too."""
    client = await NotifierClient(runtime.nc).start()
    runtime.personal.erasers.append(client.erase)
    app.state.notifier = client
    return client


def notifier(request: Request) -> NotifierClient:
    return request.app.state.notifier


Notifier = Annotated[NotifierClient, Depends(notifier)]


@router.get("/players/me/notifications", response_model=PreferencesOut)
async def get_settings(player: Player, client: Notifier) -> PreferencesOut:
    """Your notification settings (the webhook secret is never shown again)."""
    return await client.preferences(player.player_id)


@router.put("/players/me/notifications", response_model=SavedOut)
async def put_settings(body: PreferencesIn, player: Player, runtime: Lobby, client: Notifier) -> SavedOut:
    """Replace your notification settings. A new webhook gets a secret, returned in this answer only."""
    await runtime.limits.hit("notifications", player.player_id)
    try:
        saved = await client.save(player.player_id, body)
    except UnsafeUrl as refused:
        raise Invalid(refused.message, refused.code) from None
    return SavedOut(**saved.preferences.model_dump(), webhook_secret=saved.new_secret, code_sent=saved.code_sent)


@router.post("/players/me/notifications/email/confirm", response_model=PreferencesOut)
async def confirm_email(body: ConfirmIn, player: Player, runtime: Lobby, client: Notifier) -> PreferencesOut:
    """Confirm your e-mail address with the code we mailed to it: mail goes out only after this."""
    await runtime.limits.hit("notifications", player.player_id)
    try:
        return await client.confirm_email(player.player_id, body.code)
    except ConfirmationRefused as refused:
        raise Invalid(refused.message, refused.code) from None


@router.post("/players/me/notifications/test", response_model=TestOut)
async def test_webhook(player: Player, runtime: Lobby, client: Notifier) -> TestOut:
    """Send one signed test webhook now and say what your receiver answered."""
    if (await client.preferences(player.player_id)).webhook is None:
        raise Invalid("set a webhook URL first (PUT /players/me/notifications)", "NO_WEBHOOK")
    await runtime.limits.hit("notifications", player.player_id)
    try:
        answer = await client.send_test(player.player_id)
    except NotifierUnavailable:
        raise Unavailable("the notifier is not answering; try again later", "NOTIFIER_UNAVAILABLE") from None
    if answer.get("code") == "NO_WEBHOOK":     # removed meanwhile
        raise Invalid("set a webhook URL first (PUT /players/me/notifications)", "NO_WEBHOOK")
    return TestOut(**{key: answer.get(key) for key in TestOut.model_fields})


@router.get("/players/me/notifications/dead-letters", response_model=list[DeadLetterOut])
async def dead_letters(player: Player, client: Notifier,
                       after: Annotated[int, Query(ge=0, le=MAX_POSITION, description="the last id you saw")] = 0,
                       limit: Annotated[int, Query(ge=1, le=100)] = 50) -> list[DeadLetterOut]:
    """Your notifications we gave up on (after the last retry), oldest first; kept 30 days."""
    return [DeadLetterOut(**record) for record in await client.dead_letters(player.player_id, after, limit)]
