"""What a player does with their account: register (or play as a guest and claim later), log in and
out, refresh, change password, erase. Limits are checked here, before any work (argon2 is the costly
part: an address out of registrations or log-ins never gets to spend a hash)."""
from __future__ import annotations

import uuid

from lobby.accounts.directory import Account, Directory, with_changes
from lobby.accounts.names import check_name, normalise, skeleton
from lobby.accounts.passwords import Passwords, check_password
from lobby.accounts.sessions import Sessions, TokenPair
from lobby.exceptions import Conflict, Forbidden, InvalidToken, NotAuthenticated
from lobby.guard.logins import LoginDelays
from lobby.guard.rates import RateLimits
from lobby.personal import PersonalStore, now_iso
from lobby.tokens import Identity

WRONG_LOGIN = "wrong name or password"


def new_id() -> str:
    return uuid.uuid4().hex[:12]


class AccountService:
    def __init__(self, directory: Directory, sessions: Sessions, passwords: Passwords, limits: RateLimits,
                 delays: LoginDelays, personal: PersonalStore):
        self.directory, self.sessions, self.passwords = directory, sessions, passwords
        self.limits, self.delays, self.personal = limits, delays, personal

    async def register(self, name: str, password: str, address: str) -> tuple[Account, TokenPair]:
        shown, key = check_name(name)
        check_password(password)
        await self.limits.hit("registrations", address, address)
        if await self.directory.owner_of(key) is not None:      # cheap early answer; create() decides
            raise Conflict("this name, or one that looks like it, is taken", "NAME_TAKEN")
        account = Account(player_id=new_id(), name=shown, key=key, password_hash=await self.passwords.hash(password),
                          created=now_iso())
        account = await self.directory.create(account)
        return account, await self.sessions.open(account)

    async def guest(self, address: str) -> tuple[Account, TokenPair]:
        """A guest plays unrated under a generated name until it claims an account (`claim`)."""
        await self.limits.hit("registrations", address, address)
        player_id = new_id()
        account = Account(player_id=player_id, name=f"guest-{player_id[:6]}", key=f"guest:{player_id}",
                          password_hash=None, guest=True, created=now_iso())
        await self.directory.create(account)
        return account, await self.sessions.open(account)

    async def login(self, name: str, password: str, address: str) -> tuple[Account, TokenPair]:
        await self.limits.hit("logins", address, address)
        key = skeleton(normalise(name)) or "-"
        await self.delays.check(key)
        owner = await self.directory.owner_of(key)
        account = await self.directory.get(owner) if owner else None
        matches, stale_hash = await self.passwords.verify(account.password_hash if account else None, password)
        if not matches or account is None:
            await self.delays.failed(key)
            raise NotAuthenticated(WRONG_LOGIN, "WRONG_LOGIN")
        await self.delays.succeeded(key)
        if account.banned:
            raise Forbidden("this account is banned", "BANNED")
        if stale_hash:                  # parameters were raised since: store a hash with today's
            new_hash = await self.passwords.hash(password)
            account = await self.directory.update(account.player_id, lambda a: with_changes(a, password_hash=new_hash))
        return account, await self.sessions.open(account)

    async def refresh(self, refresh_token: str) -> tuple[Account, TokenPair]:
        return await self.sessions.refresh(refresh_token)

    async def logout(self, who: Identity) -> None:
        await self.sessions.end(who.family)

    async def logout_everywhere(self, who: Identity) -> None:
        """Every token of the account, on every replica, at once; its open sockets close."""
        await self.directory.update(who.player_id, lambda a: with_changes(a, epoch=a.epoch + 1))

    async def change_password(self, who: Identity, old: str, new: str) -> tuple[Account, TokenPair]:
        """Ends every other session (the epoch moves on) and opens a new one for the caller."""
        check_password(new)
        account = await self._account(who)
        await self.delays.check(account.key)
        matches, _ = await self.passwords.verify(account.password_hash, old)
        if not matches:
            await self.delays.failed(account.key)
            raise Forbidden("the current password is wrong", "WRONG_PASSWORD")
        new_hash = await self.passwords.hash(new)
        account = await self.directory.update(
            who.player_id, lambda a: with_changes(a, password_hash=new_hash, epoch=a.epoch + 1))
        return account, await self.sessions.open(account)

    async def claim(self, who: Identity, name: str, password: str) -> tuple[Account, TokenPair]:
        """A guest becomes an account: same player id (so its games stay its own), a name, a password."""
        account = await self._account(who)
        if not account.guest:
            raise Conflict("this account already has a name and a password", "NOT_A_GUEST")
        shown, key = check_name(name)
        check_password(password)
        if not await self.directory.claim_name(key, account.player_id):
            raise Conflict("this name, or one that looks like it, is taken", "NAME_TAKEN")
        new_hash = await self.passwords.hash(password)
        account = await self.directory.update(who.player_id, lambda a: with_changes(
            a, name=shown, key=key, password_hash=new_hash, guest=False, epoch=a.epoch + 1))
        return account, await self.sessions.open(account)

    async def erase(self, who: Identity, password: str | None) -> None:
        """Delete the player's personal data: account, name, chat, reports. Games keep the pseudonymous
        id (so every audit still passes) and show it as "deleted player"."""
        account = await self._account(who)
        if not account.guest:
            matches, _ = await self.passwords.verify(account.password_hash, password or "")
            if not matches:
                raise Forbidden("confirm the erasure with your password", "WRONG_PASSWORD")
        await self.personal.erase_player(account.player_id)    # chat, reports, notification settings
        await self.directory.erase(account)

    async def authenticate(self, token: str, address: str = "") -> Identity:
        """The identity behind an access token, checked against the account as every replica sees it;
        `address`: where the request came from (the limits' exemption is by address)."""
        claims = self.sessions.signer.verify_access(token)
        account = await self.directory.account(claims.player_id)
        if account is None:
            raise InvalidToken("this account no longer exists", "ACCOUNT_GONE")
        if account.banned:
            raise Forbidden("this account is banned", "BANNED")
        if account.epoch != claims.epoch or self.sessions.revoked(claims.family):
            raise InvalidToken("this token was revoked (logged out): log in again", "TOKEN_REVOKED")
        return Identity(account.player_id, account.name, account.role, account.guest, claims.family, address)

    async def _account(self, who: Identity) -> Account:
        account = await self.directory.get(who.player_id)
        if account is None:
            raise InvalidToken("this account no longer exists", "ACCOUNT_GONE")
        return account
