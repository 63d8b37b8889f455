// A live feed of a stream's events over a socket (the lobby's, or Trucker's at its own address),
// resumed from the last seq after any drop. Each connection offers a fresh single-use ticket.
import { ApiError } from "./http";
import { socketProtocols, stillSignedIn } from "./auth";
import { CLOSE_RATE_LIMITED, CLOSE_SIGNED_OUT, isFinalClose, normalize, type ProtocolError, type ServerMessage } from "./protocol";
import type { ChatMessage, ClockState, GameEvent } from "./types";

export type FeedStatus = "connecting" | "live" | "reconnecting" | "closed" | "signedOut";

export interface FeedHandlers {
  /** `clock`: the game's clock as of this event, when the push carries one. */
  onEvent: (event: GameEvent, clock?: ClockState | null) => void;
  onChat?: (chat: ChatMessage) => void;
  onWelcome?: (welcome: Extract<ServerMessage, { kind: "welcome" }>) => void;
  /** Anything else the server sends (Trucker's acks and refusals of moves). */
  onMessage?: (message: ServerMessage) => void;
  onStatus?: (status: FeedStatus) => void;
  onError?: (error: ProtocolError) => void;
}

export interface FeedTarget {
  /** The lobby's socket path (`/games/<id>/ws`), or a whole `ws://…` address (Trucker's). */
  path: string;
  /** The game or table the ticket is for (the lobby checks a private one's membership or invite). */
  gameId: string;
  invite?: string;
  /** More query parameters (the lobby's `notify=true` for `your_turn` pushes). */
  query?: Record<string, string>;
}

const RETRY_MS = [250, 500, 1000, 2000, 4000];
const RATE_LIMITED_MS = 5000;

export function socketUrl(path: string, query: Record<string, string>): string {
  const search = new URLSearchParams(query).toString();
  const base = /^wss?:\/\//.test(path) ? path
    : `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}${path}`;
  return `${base}${search ? `${base.includes("?") ? "&" : "?"}${search}` : ""}`;
}

export class LiveFeed {
  private socket: WebSocket | null = null;
  private stopped = false;
  private attempt = 0;
  private timer: number | undefined;
  private refusal: string | null = null;

  /** `lastSeq`: the last seq already shown (0: from the start; null: nothing, and the welcome brings the
   *  whole state at its seq, as Trucker's does: the first connection asks for no events before it). */
  constructor(private readonly target: FeedTarget, public lastSeq: number | null, private readonly handlers: FeedHandlers) {}

  async start(): Promise<void> {
    this.stopped = false;
    this.handlers.onStatus?.(this.attempt === 0 ? "connecting" : "reconnecting");
    let protocols: string[];
    try {
      protocols = await socketProtocols(this.target.gameId, this.target.invite);
    } catch (error) {
      const limited = error instanceof ApiError && error.status === 429;
      if (error instanceof ApiError && error.status === 404) return this.finish("closed");
      return this.retry(limited ? Math.max(RATE_LIMITED_MS, ((error as ApiError).retryAfter ?? 0) * 1000) : undefined);
    }
    if (this.stopped) return;
    this.refusal = null;
    const query: Record<string, string> = { ...this.target.query, ...(this.lastSeq === null ? {} : { after: String(this.lastSeq) }) };
    const socket = new WebSocket(socketUrl(this.target.path, query), protocols);
    this.socket = socket;
    socket.onopen = () => {
      this.attempt = 0;
      this.handlers.onStatus?.("live");
    };
    socket.onmessage = (message) => this.receive(message.data);
    socket.onclose = (closed) => {
      if (this.socket !== socket) return;
      this.socket = null;
      void this.closed(closed.code);
    };
  }

  /** Send one message on the open socket; false when it is not open (the caller says so, nothing is queued). */
  send(message: unknown): boolean {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  stop(): void {
    this.stopped = true;
    window.clearTimeout(this.timer);
    this.socket?.close(1000);
    this.socket = null;
  }

  private async closed(code: number): Promise<void> {
    if (this.stopped || isFinalClose(code)) return this.finish("closed");
    if (code === CLOSE_SIGNED_OUT && this.refusal !== "INVALID_TICKET") {
      // The account signed out everywhere, changed its password or was erased: go on only if this
      // tab's session survived (a refresh tells); otherwise the player must sign in again.
      if (!(await stillSignedIn())) return this.finish("signedOut");
    }
    this.retry(code === CLOSE_RATE_LIMITED ? RATE_LIMITED_MS : undefined);
  }

  private finish(status: FeedStatus): void {
    this.handlers.onStatus?.(status);
  }

  private retry(wait?: number): void {
    if (this.stopped) return;
    this.handlers.onStatus?.("reconnecting");
    const delay = wait ?? RETRY_MS[Math.min(this.attempt, RETRY_MS.length - 1)];
    this.attempt += 1;
    this.timer = window.setTimeout(() => void this.start(), delay);
  }

  private receive(data: unknown): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(data));
    } catch {
      return;
    }
    const message = normalize(parsed);
    if (message.kind === "event") {
      if (this.lastSeq !== null && message.event.seq <= this.lastSeq) return;   // already shown (a resume may overlap)
      this.lastSeq = message.event.seq;
      this.handlers.onEvent(message.event, message.clock);
    } else if (message.kind === "chat") {
      this.handlers.onChat?.(message.chat);
    } else if (message.kind === "welcome") {
      if (this.lastSeq === null) this.lastSeq = message.seq;     // the welcome's state covers up to its seq
      this.handlers.onWelcome?.(message);
    } else if (message.kind === "error") {
      if (message.id === null) this.refusal = message.error.code;
      if (message.id === null) this.handlers.onError?.(message.error);
      else this.handlers.onMessage?.(message);
    } else {
      this.handlers.onMessage?.(message);
    }
  }
}
