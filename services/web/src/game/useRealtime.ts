// A game's real-time phase (Trucker's building) on its own service's socket, opened with a lobby
// ticket: who the service knows me as, its latest events, and `send` for my moves. A move resolves on
// the service's ack (its events are durable) and rejects with the refusal's code and message, so a
// board shows a refusal like the lobby's. The board's view still comes from the lobby (useGame), which
// follows the same stream; `seq` tells how far the service is, so a test can wait for the lobby to catch up.
import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError } from "../api/http";
import { moveMessage } from "../api/protocol";
import { LiveFeed, type FeedStatus } from "../api/socket";
import type { Command, GameEvent } from "../api/types";

const SHOWN = 12;

export interface Realtime {
  url: string;
  status: FeedStatus;
  /** The player the service knows me as; null: a spectator; undefined: not welcomed yet. */
  you: string | null | undefined;
  /** The last seq the service told this page about (welcome, event or ack). */
  seq: number;
  events: GameEvent[];
  send: (command: Command) => Promise<void>;
}

interface Pending { resolve: () => void; reject: (error: unknown) => void }

let moveCounter = 0;
function moveId(): string {
  const random = crypto.getRandomValues(new Uint32Array(1))[0].toString(36);
  return `m${Date.now().toString(36)}${(moveCounter++).toString(36)}${random}`;
}

/** `playing`: the seat I play (its player id; null: I watch). The service tells whom a socket acts for
 *  when it opens (a substitute's socket builds the seat they hold), so the socket opens again when it
 *  changes: a seat I just took over is built on a socket of its own. */
export function useRealtime(url: string | null, gameId: string, invite?: string,
                            playing: string | null = null): Realtime | null {
  const [status, setStatus] = useState<FeedStatus>("connecting");
  const [you, setYou] = useState<string | null | undefined>(undefined);
  const [seq, setSeq] = useState(0);
  const [events, setEvents] = useState<GameEvent[]>([]);
  const feed = useRef<LiveFeed | null>(null);
  const pending = useRef(new Map<string, Pending>());

  useEffect(() => {
    if (!url) return;
    const moves = pending.current;
    // No `after` at first (the welcome's view is the whole state); after a drop, the last seq handled.
    const live = new LiveFeed({ path: url, gameId, invite }, null, {
      onWelcome: (welcome) => {
        setYou(welcome.you);
        setSeq((old) => Math.max(old, welcome.seq));
      },
      onEvent: (event) => {
        setEvents((old) => [...old.slice(-(SHOWN - 1)), event]);
        setSeq((old) => Math.max(old, event.seq));
      },
      onMessage: (message) => {
        if (message.kind !== "ack" && message.kind !== "error") return;
        const move = message.id === null ? undefined : moves.get(message.id);
        if (!move || message.id === null) return;
        moves.delete(message.id);
        if (message.kind === "ack") {
          setSeq((old) => Math.max(old, message.seq));
          move.resolve();
        } else {
          move.reject(new ApiError(409, message.error.code, message.error.message));
        }
      },
      onStatus: (next) => {
        setStatus(next);
        if (next !== "live") failPending(moves, "CONNECTION_LOST");     // the move's fate is unknown: resend
      },
    });
    feed.current = live;
    void live.start();
    return () => {
      live.stop();
      feed.current = null;
      failPending(moves, "CONNECTION_LOST");
    };
  }, [url, gameId, invite, playing]);

  if (!url) return null;
  const send = (command: Command) => new Promise<void>((resolve, reject) => {
    const id = moveId();
    pending.current.set(id, { resolve, reject });
    if (!feed.current?.send(moveMessage(id, command))) {
      pending.current.delete(id);
      reject(new ApiError(0, "CONNECTION_LOST", ""));
    }
  });
  return { url, status, you, seq, events, send };
}

function failPending(moves: Map<string, Pending>, code: string): void {
  for (const move of moves.values()) move.reject(new ApiError(0, code, ""));
  moves.clear();
}
