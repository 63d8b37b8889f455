// Everything about who the player is lives here, so moving to real accounts (passwords, access and
// refresh tokens, WebSocket tickets) changes this module only. Today the lobby's `POST /players`
// hands out a signed token: "sign up" asks for one, "log in" checks a token the player kept.
import { call } from "./http";
import type { Player, Registered } from "./types";

export interface Session { playerId: string; name: string; token: string }

const STORAGE_KEY = "starbase.session";
type Listener = (session: Session | null) => void;
const listeners = new Set<Listener>();
let current: Session | null = load();

function load(): Session | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    return raw ? (JSON.parse(raw) as Session) : null;
  } catch {
    return null;
  }
}

function save(session: Session | null): void {
  current = session;
  if (session) localStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  else localStorage.removeItem(STORAGE_KEY);
  listeners.forEach((listener) => listener(session));
}

export function session(): Session | null {
  return current;
}

export function onSessionChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export async function signUp(name: string): Promise<Session> {
  const made = await call<Registered>("register", { body: { name } });
  const fresh = { playerId: made.player_id, name: made.name, token: made.token };
  save(fresh);
  return fresh;
}

/** Log in with a token kept from an earlier sign-up (shown on the account panel). */
export async function logIn(token: string): Promise<Session> {
  const me = await call<Player>("me", { token });
  const found = { playerId: me.player_id, name: me.name, token };
  save(found);
  return found;
}

export function logOut(): void {
  save(null);
}

/** The credential for an HTTP call (null: anonymous). */
export function httpToken(): string | null {
  return current?.token ?? null;
}

/** Query parameters that authenticate a socket. Today the token itself; with accounts, a one-use ticket. */
export async function socketCredentials(): Promise<Record<string, string>> {
  return current ? { token: current.token } : {};
}
