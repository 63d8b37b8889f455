// Taking moves back, as the pushed events tell it (the platform's rule: starbase_core/undo.py): a request
// waits for the other people's answers until one refuses, the last agrees, or any game move lapses it.
import type { GameEvent } from "../api/types";

export interface UndoRequest { by: string; awaiting: string[] }

/** The undo request waiting for answers after these events, or null. */
export function pendingUndo(events: GameEvent[]): UndoRequest | null {
  let pending: UndoRequest | null = null;
  for (const event of events) {
    if (!event.platform) {
      pending = null;                               // a game move lapses a request
    } else if (event.type === "UndoRequested") {
      const data = event.data ?? {};
      pending = { by: String(data.player), awaiting: Array.isArray(data.awaiting) ? data.awaiting.map(String) : [] };
    } else if (event.type === "UndoAgreed" && pending) {
      const who = String(event.data?.player);
      const { by, awaiting } = pending as UndoRequest;
      pending = { by, awaiting: awaiting.filter((seat) => seat !== who) };
    } else if (event.type === "UndoRefused" || event.type === "CommandsUndone") {
      pending = null;
    }
  }
  return pending;
}

/** Whether the last game move still standing (not undone) was this seat's: only then is "take it back"
 *  offered (the lobby checks the rest: no draw, nothing revealed since, nobody else acted). */
export function lastMoveWas(events: GameEvent[], seat: string): boolean {
  const undone = events.filter((e) => e.platform && e.type === "CommandsUndone")
    .map((e) => [Number(e.data?.first_seq), Number(e.data?.last_seq)]);
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (event.platform && event.type !== "CommandHadNoEffect") continue;
    if (undone.some(([first, last]) => event.seq >= first && event.seq <= last)) continue;
    return event.actor === seat;
  }
  return false;
}
