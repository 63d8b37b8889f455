// The clock's arithmetic, kept apart from the screens (and unit-tested): what a seat has left now, from
// the clock a view carries (docs/clock.md), and when that is low. Times are the server's; the page counts
// them down with its own clock (hosts and browsers are expected to keep time, as the clock service does).
import type { ClockState, SeatClock } from "../api/types";

/** Low time: at most this many seconds left (or a fifth of the per-decision limit when that is less). */
export const LOW_SECONDS = 30;
const LOW_AT_LEAST = 5;

export interface SeatTime {
  /** Seconds left now: to the owed decision's due time, else the bank; null when nothing is counted. */
  left: number | null;
  /** The seat owes a decision and its time is running. */
  running: boolean;
  low: boolean;
}

/** A seat's time at `now` (ms since the epoch). A paused clock (`paused_at` set) counts nothing. */
export function seatTime(clock: ClockState, seat: SeatClock | undefined, now: number): SeatTime {
  if (!seat) return { left: null, running: false, low: false };
  const paused = Boolean(clock.paused || clock.paused_at);
  const limit = clock.control?.decision_seconds ?? null;
  let left: number | null = null;
  let running = false;
  if (seat.due_at && !paused) {
    left = Math.max(0, (Date.parse(seat.due_at) - now) / 1000);
    running = true;
  } else if (seat.bank_seconds !== null && seat.bank_seconds !== undefined) {
    left = seat.bank_seconds;
  } else if (seat.owes_since === null && limit) {
    left = limit;                          // nothing owed: a whole decision's time when it comes
  }
  if (left !== null && !Number.isFinite(left)) left = null;
  return { left: left === null ? null : Math.ceil(left), running, low: left !== null && (running || paused) && isLow(left, limit) };
}

export function isLow(left: number, limit: number | null): boolean {
  const threshold = limit ? Math.min(LOW_SECONDS, Math.max(LOW_AT_LEAST, limit / 5)) : LOW_SECONDS;
  return left <= threshold;
}

/** `h:mm:ss` or `m:ss`; days apart (`days` whole days, then the rest). */
export function splitTime(total: number): { days: number; clock: string } {
  const whole = Math.max(0, Math.round(total));
  const days = Math.floor(whole / 86400);
  const rest = whole % 86400;
  const h = Math.floor(rest / 3600), m = Math.floor((rest % 3600) / 60), s = rest % 60;
  const pad = (n: number) => String(n).padStart(2, "0");
  return { days, clock: h > 0 || days > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}` };
}

/** The clock as the page knows it: the view's, with a `your_turn` push's due time for its seat when the
 *  push is newer than the view (the view is read again after every event, so this bridges the wait). */
export function withPush(clock: ClockState | null, player: string | null, push: { seq: number; dueAt: string | null } | null): ClockState | null {
  if (!clock || !player || !push || push.seq <= clock.seq) return clock;
  const seat = clock.seats[player];
  if (!seat) return clock;
  return { ...clock, seats: { ...clock.seats, [player]: { ...seat, due_at: push.dueAt, owes_since: seat.owes_since ?? "" } } };
}
