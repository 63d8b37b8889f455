// The socket protocol, as docs/asyncapi.yaml defines it (version 1): every message either way is
// `{"v": 1, "kind": ...}`, on the lobby's sockets and the Trucker service's alike. A lobby from before
// version 1 sent `{"kind": "event", seq, type, ...}` (the event's fields at the top); `normalize` still
// reads that, for a lobby not yet upgraded.
import type { ChatMessage, ClockState, GameEvent } from "./types";

export const PROTOCOL_VERSION = 1;

export interface ProtocolError { code: string; message: string }

export type ServerMessage =
  | { kind: "welcome"; stream: string | null; you: string | null; seq: number; view?: unknown }
  | { kind: "event"; event: GameEvent; clock?: ClockState | null }
  | { kind: "chat"; chat: ChatMessage }
  | { kind: "ack"; id: string | null; seq: number; events: GameEvent[]; raw: Record<string, unknown> }
  | { kind: "error"; id: string | null; error: ProtocolError; status?: number; retryAfter?: number }
  | { kind: "your_turn"; gameId: string; seq: number; dueAt: string | null }
  | { kind: "clock"; gameId: string; seq: number; clock: ClockState }
  | { kind: "unknown"; raw: unknown };

type Raw = Record<string, unknown>;

const asError = (raw: Raw): ProtocolError => {
  const nested = raw.error as Partial<ProtocolError> | undefined;
  return { code: String(nested?.code ?? "ERROR"), message: String(nested?.message ?? "") };
};

const chatOf = (value: unknown): ChatMessage | null => {
  if (!value || typeof value !== "object") return null;
  const c = value as Raw;
  if (typeof c.id !== "number" || typeof c.text !== "string") return null;
  return { id: c.id, table_id: String(c.table_id ?? ""), player_id: String(c.player_id ?? ""),
           name: (c.name as string | null) ?? null, text: c.text, time: String(c.time ?? "") };
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
  const kind = typeof raw.kind === "string" ? raw.kind : "";
  const legacyLobbyEvent = !unified && typeof raw.kind === "string";
  switch (kind) {
    case "event": {
      const event = eventOf(legacyLobbyEvent ? raw : raw.event);
      if (!event) return { kind: "unknown", raw };
      // A push may carry the game's clock as of its event (as a view does): the page need not ask again.
      const clock = unified && raw.clock && typeof raw.clock === "object" ? (raw.clock as ClockState) : undefined;
      return clock ? { kind: "event", event, clock } : { kind: "event", event };
    }
    case "chat": {
      const chat = chatOf(unified ? raw.chat : raw);
      return chat ? { kind: "chat", chat } : { kind: "unknown", raw };
    }
    case "welcome":
      return { kind: "welcome", stream: typeof raw.stream === "string" ? raw.stream : null,
               you: (raw.you as string | null) ?? null, seq: Number(raw.seq ?? 0), view: raw.view };
    case "ack":
      return {
        kind: "ack", id: (raw.id as string | null) ?? null, seq: Number(raw.seq ?? 0), raw,
        events: ((raw.events as unknown[]) ?? []).map(eventOf).filter((e): e is GameEvent => e !== null),
      };
    case "error": {
      // A lobby game socket's answer to a move names the HTTP status the POST would have had.
      const refused: ServerMessage = { kind: "error", id: (raw.id as string | null) ?? null, error: asError(raw) };
      if (typeof raw.status === "number") refused.status = raw.status;
      if (typeof raw.retry_after === "number") refused.retryAfter = raw.retry_after;
      return refused;
    }
    case "clock":
      return unified && typeof raw.game_id === "string" && raw.clock && typeof raw.clock === "object"
        ? { kind: "clock", gameId: raw.game_id, seq: Number(raw.seq ?? 0), clock: raw.clock as ClockState }
        : { kind: "unknown", raw };
    case "your_turn":
      return unified && typeof raw.game_id === "string"
        ? { kind: "your_turn", gameId: raw.game_id, seq: Number(raw.seq ?? 0), dueAt: typeof raw.due_at === "string" ? raw.due_at : null }
        : { kind: "unknown", raw };
    default:
      return { kind: "unknown", raw };
  }
}

// Commands a real-time service stamps with its own clock: an `at` from the client is not its to say.
const STAMPED = new Set(["TurnTimer", "StartBuilding", "CallTimeUp"]);

export interface MoveMessage { v: 1; kind: "move"; id: string; command: Record<string, unknown> }

/** A move for the Trucker service: `{"v": 1, "kind": "move", id, command}` with the engine's command
 *  (as `legal_actions` lists it), `at` left out where the service stamps its own clock. */
export function moveMessage(id: string, command: { type: string; [field: string]: unknown }): MoveMessage {
  if (!STAMPED.has(command.type)) return { v: PROTOCOL_VERSION, kind: "move", id, command };
  const { at: _at, ...rest } = command;
  return { v: PROTOCOL_VERSION, kind: "move", id, command: rest };
}

/** A move on a lobby game socket: the game's command as `POST /games/{id}/commands` takes it; `id` is its
 *  command id (a resend with the same id, over the socket or by POST, is applied once). */
export function lobbyMoveMessage(id: string, command: Record<string, unknown>): MoveMessage {
  return { v: PROTOCOL_VERSION, kind: "move", id, command };
}

/** Close codes: 4000 + the HTTP status of the refusal (4401 bad credentials, 4404 no such game, …). */
export function closeStatus(code: number): number | null {
  return code >= 4000 && code < 5000 ? code - 4000 : null;
}

/** A refusal no reconnect can fix (a bad request, banned, no such game): stop retrying. 4401 is not
 *  final by itself: a spent ticket wants a fresh one, a session that ended wants a sign-in (socket.ts). */
export function isFinalClose(code: number): boolean {
  const status = closeStatus(code);
  return status !== null && [400, 403, 404].includes(status);
}

export const CLOSE_SIGNED_OUT = 4401;
export const CLOSE_RATE_LIMITED = 4429;
