// Whose turn it is, and the clock: every seat's time as the lobby's view carries it (`clock`, the fold the
// decision clock itself runs: docs/clock.md), counted down on the page, low time marked.
import { useEffect, useState } from "preact/hooks";
import type { ClockState } from "../api/types";
import { t } from "../i18n";
import { seatTime, splitTime } from "./clockMath";

export function Turn({ toAct, myTurn, names, ended }:
  { toAct: string[] | null; myTurn: boolean; names: Record<string, string>; ended: boolean }) {
  let text: string;
  if (ended) text = t("game.over");
  else if (myTurn) text = t("game.yourTurn");
  else if (toAct && toAct.length > 0) text = t("game.theirTurn", { who: toAct.map((p) => names[p] ?? p).join(", ") });
  else text = t("game.waiting");
  return <p class={myTurn && !ended ? "turn mine" : "turn"} role="status" aria-live="polite" data-my-turn={myTurn && !ended}>{text}</p>;
}

/** Draw again every second, so that the clocks count down. */
function useEverySecond(): void {
  const [, setTicks] = useState(0);
  useEffect(() => {
    const timer = window.setInterval(() => setTicks((n) => n + 1), 1000);
    return () => window.clearInterval(timer);
  }, []);
}

function timeText(left: number): string {
  const { days, clock } = splitTime(left);
  return days > 0 ? t("game.clockDays", { days, time: clock }) : clock;
}

/** Each seat's clock, in seat order: running (the seat owes a decision) and low time marked. */
export function Clocks({ clock, players, names, me, ended }:
  { clock: ClockState | null; players: string[]; names: Record<string, string>; me: string | null; ended: boolean }) {
  useEverySecond();
  // The time now, not at the last tick: a clock that arrived since then (a decision just owed) would be
  // counted from up to a second before it started, and show more than the decision's whole time.
  const now = Date.now();
  if (ended || !clock || !clock.control) return <p class="clock muted">{t("game.noClock")}</p>;
  const paused = Boolean(clock.paused || clock.paused_at);
  const mine = me ? seatTime(clock, clock.seats[me], now) : null;
  return (
    <div class="clocks" data-paused={paused}>
      {mine?.running && mine.left !== null && (
        <p class={mine.low ? "clock urgent" : "clock"} role="timer" aria-label={t("game.clockLabel")}>
          {t("game.clock", { time: timeText(mine.left) })}</p>
      )}
      {paused && <p class="clock paused" role="status">{t("game.clockPaused")}</p>}
      <ul class="seat-clocks" aria-label={t("game.clocksLabel")}>
        {players.map((player) => {
          const time = seatTime(clock, clock.seats[player], now);
          const classes = ["seat-clock", time.running ? "running" : "", time.low ? "low" : ""].filter(Boolean).join(" ");
          return (
            <li key={player} class={classes} data-player={player} data-left={time.left ?? ""} data-running={time.running}
                data-low={time.low}>
              <span class="who">{names[player] ?? player}</span>{" "}
              <span class="time">{time.left === null ? "—" : timeText(time.left)}</span>
              {time.running && <span class="owes"> {t("game.clockOwes")}</span>}
              {time.low && <span class="low-note"> {t("game.clockLow")}</span>}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
