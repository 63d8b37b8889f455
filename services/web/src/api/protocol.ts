// The socket protocol, as docs/asyncapi.yaml defines it (version 1): every server message is
// `{"v": 1, "kind": ...}`. Today's servers predate it: the lobby sends `{"kind": "event", seq, type, ...}`
// (the event's fields at the top) and Trucker `{"type": "welcome" | "ack" | "refused" | "event", ...}`.
// `normalize` reads all three, so the client works before and after the servers move to version 1.
import type { GameEvent } from "./types";

export const PROTOCOL_VERSION = 1;

export interface ProtocolError { code: string; message: string }

export type ServerMessage =
  | { kind: "welcome"; you: string | null; seq: number; view?: unknown }
  | { kind: "event"; event: GameEvent }
  | { kind: "ack"; id: string | null; seq: number; events: GameEvent[]; raw: Record<string, unknown> }
  | { kind: "error"; id: string | null; error: ProtocolError }
  | { kind: "unknown"; raw: unknown };

type Raw = Record<string, unknown>;

const asError = (raw: Raw): ProtocolError => {
  const nested = raw.error as Partial<ProtocolError> | undefined;
  return { code: String(nested?.code ?? raw.code ?? "ERROR"), message: String(nested?.message ?? raw.message ?? "") };
};

const eventOf = (value: unknown): GameEvent | null => {
  if (!value || typeof value !== "object") return null;
  const e = value as Raw;
  if (typeof e.seq !== "number" || typeof e.type !== "string") return null;
  return {
    stream: String(e.stream ?? ""), seq: e.seq, type: e.type, data: (e.data as GameEvent["data"]) ?? null,
    actor: (e.actor as string | null) ?? null, time: String(e.time ?? ""), platform: Boolean(e.platform),
  };
};

export function normalize(input: unknown): ServerMessage {
  if (!input || typeof input !== "object") return { kind: "unknown", raw: input };
  const raw = input as Raw;
  const unified = typeof raw.v === "number" && raw.v >= PROTOCOL_VERSION;
  // Version 1 and the lobby today name the message in `kind`; Trucker today in `type`.
  const kind = typeof raw.kind === "string" ? raw.kind : typeof raw.type === "string" ? raw.type : "";
  const legacyLobbyEvent = !unified && typeof raw.kind === "string";
  switch (kind) {
    case "event": {
      const event = eventOf(legacyLobbyEvent ? raw : raw.event);
      return event ? { kind: "event", event } : { kind: "unknown", raw };
    }
    case "welcome":
      return { kind: "welcome", you: (raw.you as string | null) ?? null, seq: Number(raw.seq ?? 0), view: raw.view };
    case "ack":
      return {
        kind: "ack", id: (raw.id as string | null) ?? null, seq: Number(raw.seq ?? 0), raw,
        events: ((raw.events as unknown[]) ?? []).map(eventOf).filter((e): e is GameEvent => e !== null),
      };
    case "error":
    case "refused":
      return { kind: "error", id: (raw.id as string | null) ?? null, error: asError(raw) };
    default:
      return { kind: "unknown", raw };
  }
}

/** Close codes: 4000 + the HTTP status of the refusal (4401 bad credentials, 4404 no such game, …). */
export function closeStatus(code: number): number | null {
  return code >= 4000 && code < 5000 ? code - 4000 : null;
}

/** A refusal no reconnect can fix (bad credentials, no such game, not allowed): stop retrying. */
export function isFinalClose(code: number): boolean {
  const status = closeStatus(code);
  return status !== null && [400, 401, 403, 404].includes(status);
}
