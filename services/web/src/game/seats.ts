// Who plays which seat of a running game, as the table says: a seat's own player until they give it up,
// then a bot until a substitute takes it over.
import type { Seat, Table } from "../api/types";

/** The seat I play now: my own (not given up) or one I took over; undefined if I play none. */
export function seatIPlay(table: Table, me: string | null): Seat | undefined {
  if (!me) return undefined;
  return table.seats.find((s) => s.substitute === me || (s.player_id === me && !s.abandoned && !s.substitute));
}

/** Whether I may take a given-up seat over: signed in, and never in this game (as a player or a substitute). */
export function mayTakeASeat(table: Table, me: string | null): boolean {
  return Boolean(me) && table.status === "playing" && !table.seats.some((s) => s.player_id === me || s.substitute === me);
}

/** Give my seat up. The lobby's route (`give`) decides it in every phase but one played live on a
 *  service of its own (Trucker's building), which it refuses with REALTIME_PHASE: then it goes on that
 *  phase's socket (`live`: the page's Trucker socket), whose service decides it (docs/trucker_service.md). */
export async function giveSeatUp(give: () => Promise<unknown>,
                                 live: ((command: { type: string }) => Promise<void>) | null): Promise<void> {
  try {
    await give();
  } catch (error) {
    if (!live || (error as { code?: unknown } | null)?.code !== "REALTIME_PHASE") throw error;
    await live({ type: "Resign" });
  }
}
