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
