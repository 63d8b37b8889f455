"""Personal data (accounts, sessions, chat, reports, the moderation log) is the lobby's alone on NATS:
no other service reads or writes any of it, and `starbase admin`'s user reads and writes accounts and
appends to the moderation log, nothing more (no sessions, no deletes, no event store, no new buckets)."""
from __future__ import annotations

import pytest
from nats.js import api

from lobby.accounts.directory import Account, Directory
from lobby.personal import PersonalStore
from tests.security.test_nats_permissions import DENIED

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]


async def the_lobbys_data(secured) -> tuple[Directory, PersonalStore, int]:
    """The lobby makes its buckets and stream (as `LobbyRuntime.start` does) and stores an account and
    a chat message; the message's id."""
    lobby = await secured.connect("lobby")
    names = secured.names
    personal = await PersonalStore(lobby.nc, names.personal_stream, names.personal_prefix).ensure()
    directory = await Directory(lobby.nc, names.accounts).start()
    await lobby.nc.jetstream().create_key_value(api.KeyValueConfig(bucket=names.sessions, history=1))
    if await directory.get("ann") is None:
        await directory.create(Account(player_id="ann", name="ann", key="ann", password_hash=None))
    record = await personal.add("chat.t1.ann", {"table": "t1", "player": "ann", "text": "hello"})
    await directory.stop()
    assert lobby.errors == []
    return directory, personal, record.id


@pytest.mark.parametrize("role", ["adjudicator", "scoring", "clock", "trucker", "bots", "notifier", "audit"])
async def test_no_other_service_reads_or_writes_personal_data(secured, role):
    _, _, message_id = await the_lobbys_data(secured)
    names = secured.names
    watched = await secured.connect(role)
    js = watched.nc.jetstream(timeout=1.5)
    for read in (js.get_msg(f"KV_{names.accounts}", subject=f"$KV.{names.accounts}.p.ann"),
                 js.get_msg(f"KV_{names.accounts}", subject=f"$KV.{names.accounts}.p.ann", direct=True),
                 js.get_msg(names.personal_stream, message_id),
                 js.add_consumer(f"KV_{names.accounts}", api.ConsumerConfig()),
                 js.publish(f"{names.personal_prefix}.chat.t1.{role}", b"{}")):
        with pytest.raises(DENIED):
            await read
    await watched.nc.subscribe(f"{names.personal_prefix}-live.>")
    assert await watched.wait_refused(f"{names.personal_prefix}-live")
    assert watched.refused(f"KV_{names.accounts}") and watched.refused(names.personal_stream)


async def test_the_console_reads_and_writes_accounts_and_appends_to_the_log_only(secured):
    _, _, message_id = await the_lobbys_data(secured)
    names = secured.names
    admin = await secured.connect("admin")
    directory = await Directory(admin.nc, names.accounts).open()
    account = await directory.update("ann", lambda a: Account(**{**a.__dict__, "role": "moderator"}))
    assert (await directory.get("ann")).role == account.role == "moderator"
    console_log = PersonalStore(admin.nc, names.personal_stream, names.personal_prefix)
    entry = await console_log.add("modlog", {"actor": "console", "action": "set_role", "target": "ann"})
    assert [r.id for r in await console_log.read("modlog", entry.id - 1)] == [entry.id]
    assert admin.errors == []

    js = admin.nc.jetstream(timeout=1.5)
    for forbidden in (js.get_msg(f"KV_{names.sessions}", subject=f"$KV.{names.sessions}.x"),
                      js.delete_msg(names.personal_stream, message_id),
                      js.purge_stream(names.personal_stream, subject=f"{names.personal_prefix}.chat.>"),
                      js.publish(f"{names.personal_prefix}.chat.t1.console", b"{}"),
                      js.create_key_value(api.KeyValueConfig(bucket=f"{names.accounts}x")),
                      js.get_msg(names.stream, subject=f"{names.prefix}.table.t1", direct=True),
                      js.add_consumer(f"KV_{names.accounts}", api.ConsumerConfig())):
        with pytest.raises(DENIED):
            await forbidden
    await admin.nc.subscribe(f"{names.personal_prefix}-live.>")
    assert await admin.wait_refused(f"{names.personal_prefix}-live")
    assert admin.refused(f"STREAM.MSG.DELETE.{names.personal_stream}")
    assert admin.refused(f"STREAM.PURGE.{names.personal_stream}")
