// A live feed of a stream's events over the lobby's socket, resumed from the last seq after any drop.
import { socketCredentials } from "./auth";
import { isFinalClose, normalize, type ProtocolError } from "./protocol";
import type { GameEvent } from "./types";

export type FeedStatus = "connecting" | "live" | "reconnecting" | "closed";

export interface FeedHandlers {
  onEvent: (event: GameEvent) => void;
  onStatus?: (status: FeedStatus) => void;
  onError?: (error: ProtocolError) => void;
}

const RETRY_MS = [250, 500, 1000, 2000, 4000];

export function socketUrl(path: string, query: Record<string, string>): string {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const search = new URLSearchParams(query).toString();
  return `${scheme}//${location.host}${path}${search ? `?${search}` : ""}`;
}

export class LiveFeed {
  private socket: WebSocket | null = null;
  private stopped = false;
  private attempt = 0;
  private timer: number | undefined;

  /** `after`: the last seq already shown (0: from the start). */
  constructor(private readonly path: string, public lastSeq: number, private readonly handlers: FeedHandlers,
              private readonly extraQuery: Record<string, string> = {}) {}

  async start(): Promise<void> {
    this.stopped = false;
    const query = { ...(await socketCredentials()), ...this.extraQuery, after: String(this.lastSeq) };
    if (this.stopped) return;
    this.handlers.onStatus?.(this.attempt === 0 ? "connecting" : "reconnecting");
    const socket = new WebSocket(socketUrl(this.path, query));
    this.socket = socket;
    socket.onopen = () => {
      this.attempt = 0;
      this.handlers.onStatus?.("live");
    };
    socket.onmessage = (message) => this.receive(message.data);
    socket.onclose = (closed) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.stopped || isFinalClose(closed.code)) {
        this.handlers.onStatus?.("closed");
        return;
      }
      this.handlers.onStatus?.("reconnecting");
      const wait = RETRY_MS[Math.min(this.attempt, RETRY_MS.length - 1)];
      this.attempt += 1;
      this.timer = window.setTimeout(() => void this.start(), wait);
    };
  }

  stop(): void {
    this.stopped = true;
    window.clearTimeout(this.timer);
    this.socket?.close(1000);
    this.socket = null;
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
      if (message.event.seq <= this.lastSeq) return;      // already shown (a resume may overlap)
      this.lastSeq = message.event.seq;
      this.handlers.onEvent(message.event);
    } else if (message.kind === "error") {
      this.handlers.onError?.(message.error);
    }
  }
}
