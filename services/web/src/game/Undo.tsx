// Taking my last move back, and answering another's request to (rated games: everyone else agrees).
import { api } from "../api/client";
import type { GameEvent } from "../api/types";
import { Agreement } from "./Agreement";
import { lastMoveWas, pendingUndo } from "./undo";

const WORDS = { title: "game.undoTitle", ask: "game.undo", asked: "game.undoAsked", agree: "game.undoAgree",
  refuse: "game.undoRefuse", waiting: "game.undoWaiting" } as const;

export function Undo({ gameId, events, seat, names }:
  { gameId: string; events: GameEvent[]; seat: string; names: Record<string, string> }) {
  return (
    <Agreement kind="undo" request={pendingUndo(events)} seat={seat} names={names}
               mayAsk={lastMoveWas(events, seat)} words={WORDS}
               calls={{ ask: () => api.undo(gameId, 1), agree: () => api.agreeUndo(gameId),
                        refuse: () => api.refuseUndo(gameId) }} />
  );
}
