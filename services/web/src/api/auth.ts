// Who the player is, and the tokens that prove it (docs/accounts.md; the choices: docs/web-client.md).
//
// - The access token (15 minutes) lives in this tab's memory only: no storage, no cookie, never in a
//   URL. It is renewed before it expires, and once more on a 401 (a tab asleep misses its timer).
// - The refresh token lives in localStorage with the player's public facts, so a player stays signed
//   in across reloads, tabs and restarts. Each use rotates it and the lobby ends the session if a spent
//   one is shown again; so tabs never refresh at once: a refresh holds a Web Lock shared by the
//   origin's tabs and re-reads the stored token inside it. A sign-out in one tab reaches the others
//   through the `storage` event.
// - Sockets get a single-use ticket (POST /tickets) offered as a subprotocol: no token on a socket.
import { ApiError, call, type CallParams, type RouteName } from "./http";
import type { Role, SessionReply, Ticket } from "./types";

export interface Session { playerId: string; name: string; role: Role; guest: boolean }
/** Why the player is no longer signed in, to tell them (null: they chose to, or never were). */
export type SignedOut = "ended" | "banned" | "erased" | null;

interface Stored extends Session { refresh: string }

const STORAGE_KEY = "starbase.session";
const LOCK = "starbase.refresh";
/** The protocol name a socket offers without a ticket (an anonymous spectator). */
export const SOCKET_PROTOCOL = "starbase.v1";

type Listener = (session: Session | null) => void;
const listeners = new Set<Listener>();
let stored: Stored | null = readStored();
let current: Session | null = publicPart(stored);
let access: { token: string; expires: number; margin: number } | null = null;
let refreshing: Promise<void> | null = null;
let timer: number | undefined;
let signedOut: SignedOut = null;

function readStored(): Stored | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    const value = raw ? (JSON.parse(raw) as Stored) : null;
    return value && typeof value.refresh === "string" && typeof value.playerId === "string" ? value : null;
  } catch {
    return null;
  }
}

function publicPart(value: Stored | null): Session | null {
  return value ? { playerId: value.playerId, name: value.name, role: value.role, guest: value.guest } : null;
}

function changed(): void {
  current = publicPart(stored);
  listeners.forEach((listener) => listener(current));
}

export function session(): Session | null {
  return current;
}

export function signedOutReason(): SignedOut {
  return signedOut;
}

export function onSessionChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Refresh when half the lifetime is gone, or a minute before the end, whichever is later. */
export function refreshDelaySeconds(expiresIn: number): number {
  return Math.max(expiresIn / 2, expiresIn - 60);
}

function adopt(reply: SessionReply): Session {
  stored = { refresh: reply.refresh_token, playerId: reply.player_id, name: reply.name, role: reply.role, guest: reply.guest };
  localStorage.setItem(STORAGE_KEY, JSON.stringify(stored));
  // Renewed on use when this close to its end: 5 s, or a fifth of a (test's) very short lifetime.
  access = { token: reply.access_token, expires: Date.now() + reply.expires_in * 1000,
             margin: Math.min(5_000, reply.expires_in * 200) };
  window.clearTimeout(timer);
  timer = window.setTimeout(() => void refresh().catch(() => undefined), refreshDelaySeconds(reply.expires_in) * 1000);
  signedOut = null;
  changed();
  return current!;
}

function forget(reason: SignedOut): void {
  stored = null;
  access = null;
  window.clearTimeout(timer);
  localStorage.removeItem(STORAGE_KEY);
  signedOut = reason;
  changed();
}

// Another tab signed in, refreshed or signed out.
window.addEventListener("storage", (event) => {
  if (event.key !== STORAGE_KEY && event.key !== null) return;
  const next = readStored();
  if (!next) {
    if (stored) forget("ended");
    return;
  }
  if (!stored || next.playerId !== stored.playerId) access = null;      // someone else now: my token is not theirs
  stored = next;
  changed();
});

function withLock(work: () => Promise<void>): Promise<void> {
  // No Web Locks (an origin that is not secure, e.g. plain http on a LAN address): tabs may race.
  return navigator.locks ? navigator.locks.request(LOCK, () => work()).then(() => undefined) : work();
}

/** A new token pair from the stored refresh token; a refusal means the session is over. */
function refresh(): Promise<void> {
  refreshing ??= withLock(async () => {
    const latest = readStored();          // another tab may have rotated it while we waited for the lock
    if (!latest) {
      forget(stored ? "ended" : signedOut);
      throw new ApiError(401, "NOT_AUTHENTICATED", "signed out");
    }
    try {
      adopt(await call<SessionReply>("refresh", { body: { refresh_token: latest.refresh } }));
    } catch (error) {
      // A newer session taken meanwhile (a guest's claim or a password change answered while this
      // refresh was on its way) is why the old token was refused: that session goes on.
      if (readStored()?.refresh !== latest.refresh) return;
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        forget(error.code === "BANNED" ? "banned" : error.code === "ACCOUNT_GONE" ? "erased" : "ended");
      }
      throw error;
    }
  }).finally(() => { refreshing = null; });
  return refreshing;
}

/** This tab's access token, renewed when it is (nearly) spent; null when nobody is signed in. */
async function accessToken(): Promise<string | null> {
  if (!stored) return null;
  if (!access || access.expires - Date.now() < access.margin) {
    try {
      await refresh();
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return null;   // now signed out
      throw error;
    }
  }
  return access?.token ?? null;
}

/** An HTTP call as the signed-in player (anonymous when nobody is), retried once after a refresh on a 401. */
export async function authed<T>(name: RouteName, params: CallParams = {}): Promise<T> {
  const token = await accessToken();
  try {
    return await call<T>(name, { ...params, token });
  } catch (error) {
    if (!(error instanceof ApiError) || !token) throw error;
    if (error.status === 401) {
      await refresh();
      return call<T>(name, { ...params, token: access?.token ?? null });
    }
    if (error.code === "BANNED") forget("banned");
    throw error;
  }
}

export const signUp = async (name: string, password: string) =>
  adopt(await call<SessionReply>("register", { body: { name, password } }));
export const logIn = async (name: string, password: string) =>
  adopt(await call<SessionReply>("login", { body: { name, password } }));
export const playAsGuest = async () => adopt(await call<SessionReply>("guest"));
/** A guest takes a name and a password, keeping its id and games. */
export const claimAccount = async (name: string, password: string) =>
  adopt(await authed<SessionReply>("claim", { body: { name, password } }));
/** Every other session ends; this tab gets a new one. */
export const changePassword = async (oldPassword: string, newPassword: string) =>
  adopt(await authed<SessionReply>("changePassword", { body: { old_password: oldPassword, new_password: newPassword } }));

export async function logOut(): Promise<void> {
  try {
    if (stored) await authed("logout");
  } catch {
    // Already over on the server, or unreachable: this browser forgets it all the same.
  }
  forget(null);
}

/** Every token of the account, on every device, stops working; their sockets close. */
export async function logOutEverywhere(): Promise<void> {
  await authed("logoutEverywhere");
  forget(null);
}

/** Erase the account (guests need no password). */
export async function deleteAccount(password: string | null): Promise<void> {
  await authed("erase", { body: { password } });
  forget("erased");
}

/** The subprotocols a socket offers: a fresh single-use ticket when signed in or holding an invite.
 *  `gameId` names the game or table (for a private one the lobby checks membership or `invite`). */
export async function socketProtocols(gameId: string | null, invite?: string): Promise<string[]> {
  if (!stored && !invite) return [SOCKET_PROTOCOL];
  const ticket = await authed<Ticket>("ticket", { body: { game_id: gameId, invite: invite ?? null } });
  return ticket.protocols;
}

/** After a socket was closed as signed out (4401): is this tab's session still alive? (A refresh tells.) */
export async function stillSignedIn(): Promise<boolean> {
  if (!stored) return false;
  try {
    await refresh();
    return true;
  } catch (error) {
    return !(error instanceof ApiError && (error.status === 401 || error.status === 403));
  }
}
