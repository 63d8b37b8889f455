// A game as the client holds it: the log (every event so far), the current view and my legal actions,
// kept current from the game's socket. Pushes that arrive together cause one refresh; the socket
// resumes from the last seq after a drop, so nothing is missed or shown twice.
import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, api } from "../api/client";
import { lobbyMoveMessage } from "../api/protocol";
import { LiveFeed, type FeedStatus } from "../api/socket";
import type { ClockState, Command, CommandResult, GameEvent, GameView } from "../api/types";
import { refreshMyTurns } from "../ui/myTurns";
import { MovesInFlight } from "./moves";

export interface GameState {
  events: GameEvent[];
  view: GameView | null;
  /** Why the game ended (the platform's word), null while it runs. */
  ended: string | null;
  actions: Command[];
  /** The seq the shown view is current to. */
  drawnSeq: number;
  /** My actions were asked for after every event up to this seq had been pushed. */
  actionsSeq: number;
  status: FeedStatus;
  error: unknown;
  /** The game's clock as the last view carried it (null: untimed, or over). */
  clock: ClockState | null;
  /** The latest `your_turn` push for my seat: the seq after which I owe a decision, and its due time. */
  turnPush: { seq: number; dueAt: string | null } | null;
}

async function wholeLog(gameId: string, invite?: string): Promise<GameEvent[]> {
  const events: GameEvent[] = [];
  for (let after = 0; ;) {
    const page = await api.log(gameId, after, invite);
    events.push(...page.events);
    if (page.events.length === 0 || page.last_seq <= after) return events;
    after = page.last_seq;
  }
}

export function useGame(gameId: string, seated: boolean, invite?: string):
    GameState & { refresh: () => void; submit: (command: Command, commandId: string) => Promise<CommandResult> } {
  const [state, setState] = useState<GameState>(
    { events: [], view: null, ended: null, actions: [], drawnSeq: 0, actionsSeq: 0, status: "connecting", error: null,
      clock: null, turnPush: null });
  const latest = useRef(0);
  const refreshing = useRef<Promise<void> | null>(null);
  const again = useRef(false);
  const feedRef = useRef<LiveFeed | null>(null);
  // Read by `refresh` when it runs, not when it was made: a refresh in flight as I take a seat over (or
  // give mine up) goes round again with what I am now, not with what I was when it started.
  const seatedNow = useRef(seated);
  seatedNow.current = seated;
  // Moves go on the game's socket once it is live (no HTTP request per move: less of the lobby's CPU),
  // else by POST; a move whose socket drops before its answer goes again by POST, same id (game/moves.ts).
  const [moves] = useState(() => new MovesInFlight((command, id) => api.submit(gameId, command, id),
                                                   (status, code, message, retryAfter) => new ApiError(status, code, message, retryAfter)));

  const refresh = () => {
    if (refreshing.current) {
      again.current = true;
      return;
    }
    const upTo = latest.current;
    // The view is drawn as soon as it arrives; my actions (slower to compute for some games) follow.
    const view = api.view(gameId, invite).then((reply) => {
      if (reply.seq < upTo) again.current = true;      // a replica behind the push: ask again
      setState((old) => ({ ...old, view: reply.view, ended: reply.ended, clock: reply.clock ?? null,
                           drawnSeq: Math.max(old.drawnSeq, reply.seq), error: null }));
    });
    const actions = (seatedNow.current ? api.actions(gameId) : Promise.resolve([])).then((list) => {
      setState((old) => ({ ...old, actions: list, actionsSeq: Math.max(old.actionsSeq, upTo) }));
    });
    refreshing.current = Promise.all([view, actions]).then(() => undefined)
      .catch((error) => setState((old) => ({ ...old, error })))
      .finally(() => {
        refreshing.current = null;
        if (again.current) {
          again.current = false;
          refresh();
        }
      });
  };

  useEffect(() => {
    let feed: LiveFeed | null = null;
    let gone = false;
    wholeLog(gameId, invite).then((events) => {
      if (gone) return;
      latest.current = events.length ? events[events.length - 1].seq : 0;
      setState((old) => ({ ...old, events }));
      refresh();
      // A seat asks for `your_turn` pushes: they move the header's badge and my clock at once.
      const query = seated ? { notify: "true" } : undefined;
      feed = new LiveFeed({ path: `/games/${encodeURIComponent(gameId)}/ws`, gameId, invite, query }, latest.current, {
        onEvent: (event, clock) => {
          latest.current = Math.max(latest.current, event.seq);
          setState((old) => ({ ...old, events: [...old.events, event], clock: clock === undefined ? old.clock : clock }));
          queueMicrotask(refresh);
        },
        onMessage: (message) => {
          if (moves.answered(message)) return;
          // The lobby's `clock` push (a decision began or ended, a pause): shown at once.
          if (message.kind === "clock" && message.gameId === gameId) {
            setState((old) => ({ ...old, clock: !old.clock || message.seq >= old.clock.seq ? message.clock : old.clock }));
            return;
          }
          if (message.kind !== "your_turn" || message.gameId !== gameId) return;
          setState((old) => ({ ...old, turnPush: { seq: message.seq, dueAt: message.dueAt } }));
          refreshMyTurns();
        },
        onStatus: (status) => {
          setState((old) => ({ ...old, status }));
          if (status !== "live") moves.lost();    // their fate is unknown: the same ids again, by POST
          if (status === "live") refresh();       // catch up on anything decided while away
        },
        onError: (problem) => setState((old) => ({ ...old, error: new ApiError(0, problem.code, problem.message) })),
      });
      feedRef.current = feed;
      void feed.start();
    }, (error) => setState((old) => ({ ...old, error })));
    return () => {
      gone = true;
      feed?.stop();
      feedRef.current = null;
      moves.lost();
    };
  }, [gameId, seated, invite]);

  const submit = (command: Command, commandId: string) => {
    const feed = feedRef.current;
    const onSocket = seated && state.status === "live" && feed
      ? (id: string, move: Command) => feed.send(lobbyMoveMessage(id, move)) : null;
    return moves.send(command, commandId, onSocket);
  };

  return { ...state, refresh, submit };
}
