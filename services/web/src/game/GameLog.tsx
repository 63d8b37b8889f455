// The game's log in words, newest last, scrolled to the end as events arrive.
import { useEffect, useRef } from "preact/hooks";
import type { GameEvent } from "../api/types";
import { formatTime, t } from "../i18n";
import { describeEvent } from "./words";

const SHOWN = 300;

export function GameLog({ events, names, describe }:
  { events: GameEvent[]; names: Record<string, string>; describe?: (e: GameEvent, n: Record<string, string>) => string | null }) {
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const element = list.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [events.length]);
  const shown = events.slice(-SHOWN);
  return (
    <section class="panel log" aria-labelledby="log-title">
      <h3 id="log-title">{t("game.log")}</h3>
      {events.length > SHOWN && <p class="muted">{t("game.logTrimmed", { shown: SHOWN, total: events.length })}</p>}
      <ol ref={list} class="log-lines" tabIndex={0} aria-label={t("game.log")}>
        {shown.map((event) => (
          <li key={event.seq} value={event.seq} data-seq={event.seq} data-type={event.type}>
            <time dateTime={event.time} title={formatTime(event.time)}>{event.seq}</time>{" "}
            {describe?.(event, names) ?? describeEvent(event, names)}
          </li>
        ))}
      </ol>
    </section>
  );
}
