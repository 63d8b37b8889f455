"""`starbase admin …`: accounts and moderation from the server's side, straight on the lobby's storage.

    starbase admin create-admin NAME      # a new account with the admin role (the first admin)
    starbase admin role NAME ROLE         # player | moderator | admin
    starbase admin ban NAME [--reason R]  /  unban NAME
    starbase admin mute NAME --minutes M  /  unmute NAME
    starbase admin log [--after N]        # the moderation log, one JSON object per line

The password of `create-admin` is read from STARBASE_ADMIN_PASSWORD, or asked for (never an argument:
it would stay in the shell history and the process list), and there is no default admin or password.
The commands use the lobby's own settings (NATS_URL, LOBBY_ACCOUNTS_BUCKET, LOBBY_PERSONAL_STREAM, …)
and write where the lobby does: every lobby replica sees the change at once through its watch of the
accounts (a ban closes the player's sockets everywhere). Each action is logged with the actor "console".
They connect as NATS user `admin` (NATS_NKEY_FILE, e.g. `.run/credentials/nats/admin.nk` under
`make run`), which may read and write accounts and append to the moderation log, nothing more
(docs/security.md): the lobby must have started once, to make the bucket and the stream.
"""
from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import os
import sys

EXIT_OK, EXIT_REFUSED = 0, 1


def register(subparsers) -> None:
    admin = subparsers.add_parser("admin", help="create the first admin, give roles, ban, mute, read the log")
    commands = admin.add_subparsers(dest="admin_command", required=True)
    create = commands.add_parser("create-admin", help="a new account with the admin role")
    create.add_argument("name")
    role = commands.add_parser("role", help="give an account a role")
    role.add_argument("name")
    role.add_argument("role", choices=["player", "moderator", "admin"])
    for action in ("ban", "unban", "mute", "unmute"):
        sub = commands.add_parser(action, help=f"{action} an account")
        sub.add_argument("name")
        sub.add_argument("--reason", default="")
        if action == "mute":
            sub.add_argument("--minutes", type=int, required=True)
    log = commands.add_parser("log", help="print the moderation log")
    log.add_argument("--after", type=int, default=0)
    log.add_argument("--limit", type=int, default=100)
    admin.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from nats.errors import Error as NatsError

    from lobby.config import load_settings
    from lobby.exceptions import LobbyError

    password = None
    if args.admin_command == "create-admin":
        password = os.environ.get("STARBASE_ADMIN_PASSWORD") or getpass.getpass(f"password for {args.name}: ")
    try:
        for line in asyncio.run(execute(load_settings(), args, password)):
            print(line)
    except LobbyError as refusal:
        print(f"refused: {refusal.code}: {refusal.message}", file=sys.stderr)
        return EXIT_REFUSED
    except (ConnectionError, TimeoutError, NatsError) as failure:
        # No user, another service's user, or no NATS: say so, without a traceback.
        print(f"could not reach the lobby's accounts on NATS ({type(failure).__name__}: {failure}); run it with "
              "NATS_URL and the admin's NATS_NKEY_FILE (`make run` prints the command)", file=sys.stderr)
        return EXIT_REFUSED
    return EXIT_OK


async def execute(settings, args: argparse.Namespace, password: str | None = None) -> list[str]:
    """Run one admin command against the lobby's storage; the lines to print."""
    from starbase_core.bus import connect_nats, safe_url
    from starbase_core.connections import nats_auth

    from lobby.accounts.directory import Account, Directory
    from lobby.accounts.names import check_name, skeleton
    from lobby.accounts.passwords import Passwords, check_password
    from lobby.accounts.service import new_id
    from lobby.exceptions import NotFound
    from lobby.moderation.service import CONSOLE, Moderation
    from lobby.personal import PersonalStore, now_iso

    nc = await connect_nats(settings.nats_url, name="starbase-admin", attempts=3, auth=nats_auth(settings, "admin"))
    try:
        try:
            directory = await Directory(nc, settings.lobby_accounts_bucket, settings.store_replicas).open()
        except KeyError:
            raise NotFound(f"no accounts bucket {settings.lobby_accounts_bucket!r} on {safe_url(settings.nats_url)}: "
                           "start the lobby once first", "NO_ACCOUNTS") from None
        personal = PersonalStore(nc, settings.lobby_personal_stream, settings.lobby_personal_prefix,
                                 settings.store_replicas)
        moderation = Moderation(directory, personal)
        console_rank = 3                    # above every role: the console acts for the operator

        if args.admin_command == "create-admin":
            shown, key = check_name(args.name)
            check_password(password or "")
            hasher = Passwords(settings.lobby_argon2_time_cost, settings.lobby_argon2_memory_kib,
                               settings.lobby_argon2_parallelism)
            account = await directory.create(Account(
                player_id=new_id(), name=shown, key=key, password_hash=await hasher.hash(password or ""),
                role="admin", created=now_iso()))
            await moderation.log(CONSOLE, "create_admin", account.player_id)
            return [f"admin {account.name} created: player id {account.player_id}"]
        if args.admin_command == "log":
            return [json.dumps({"id": r.id, "time": r.time, **r.data})
                    for r in await moderation.entries(args.after, args.limit)]

        owner = await directory.owner_of(skeleton(args.name))
        if owner is None:
            raise NotFound(f"no account named {args.name!r}", "PLAYER_NOT_FOUND")
        if args.admin_command == "role":
            account = await moderation.set_role(CONSOLE, owner, args.role, "")
        elif args.admin_command == "mute":
            account = await moderation.mute(CONSOLE, console_rank, owner, args.minutes, args.reason)
        else:
            account = await getattr(moderation, args.admin_command)(CONSOLE, console_rank, owner, args.reason)
        return [f"{args.admin_command}: {account.name} ({account.player_id}) role={account.role} "
                f"banned={account.banned}"]
    finally:
        await nc.drain()
