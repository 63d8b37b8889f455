// Whose turn it is, and the decision clock when the table has one (`decision_seconds`): the time left
// counts from the last event that changed the game, as the clock service counts it (docs/clock.md).
import { useEffect, useState } from "preact/hooks";
import type { GameEvent } from "../api/types";
import { t } from "../i18n";

const NO_EFFECT = "CommandHadNoEffect";

export function Turn({ toAct, myTurn, names, ended }:
  { toAct: string[] | null; myTurn: boolean; names: Record<string, string>; ended: boolean }) {
  let text: string;
  if (ended) text = t("game.over");
  else if (myTurn) text = t("game.yourTurn");
  else if (toAct && toAct.length > 0) text = t("game.theirTurn", { who: toAct.map((p) => names[p] ?? p).join(", ") });
  else text = t("game.waiting");
  return <p class={myTurn && !ended ? "turn mine" : "turn"} role="status" aria-live="polite" data-my-turn={myTurn && !ended}>{text}</p>;
}

export function Clock({ seconds, events, ended }: { seconds: number; events: GameEvent[]; ended: boolean }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  if (ended || !(seconds > 0)) return <p class="clock muted">{t("game.noClock")}</p>;
  const last = [...events].reverse().find((e) => e.type !== NO_EFFECT);
  if (!last) return null;
  const left = Math.max(0, Math.round((Date.parse(last.time) + seconds * 1000 - now) / 1000));
  const text = t("game.clock", { minutes: Math.floor(left / 60), seconds: String(left % 60).padStart(2, "0") });
  return <p class={left < 15 ? "clock urgent" : "clock"} role="timer" aria-label={t("game.clockLabel")}>{text}</p>;
}
