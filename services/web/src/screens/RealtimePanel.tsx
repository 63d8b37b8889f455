// A game's real-time phase (Trucker's building rounds), followed live on its own service's socket with
// a lobby ticket: who the service sees me as, its view at the last welcome, and the latest events.
// Building moves are not offered in the browser yet (docs/web-client.md, "Limits").
import { useEffect, useState } from "preact/hooks";
import { LiveFeed, type FeedStatus } from "../api/socket";
import type { GameEvent, GameView } from "../api/types";
import { ViewTree } from "../game/ViewTree";
import { t } from "../i18n";

const SHOWN = 12;

export function RealtimePanel({ url, gameId, invite, names }:
  { url: string; gameId: string; invite?: string; names: Record<string, string> }) {
  const [status, setStatus] = useState<FeedStatus>("connecting");
  const [you, setYou] = useState<string | null | undefined>(undefined);
  const [view, setView] = useState<GameView | null>(null);
  const [events, setEvents] = useState<GameEvent[]>([]);
  useEffect(() => {
    const feed = new LiveFeed({ path: url, gameId, invite }, 0, {
      onWelcome: (welcome) => {
        setYou(welcome.you);
        if (welcome.view && typeof welcome.view === "object") setView(welcome.view as GameView);
      },
      onEvent: (event) => setEvents((old) => [...old.slice(-(SHOWN - 1)), event]),
      onStatus: setStatus,
    });
    void feed.start();
    return () => feed.stop();
  }, [url, gameId, invite]);
  return (
    <section class="panel realtime" aria-labelledby="realtime-title" data-realtime={status} data-you={you ?? ""}>
      <h2 id="realtime-title">{t("realtime.title")}</h2>
      <p role="status">{t(`connection.${status}`)}{you !== undefined &&
        <> · {you ? t("realtime.you", { name: names[you] ?? you }) : t("realtime.watching")}</>}</p>
      <p class="muted">{t("realtime.address")} <code>{url}</code></p>
      {events.length > 0 && (
        <ol class="plain">{events.map((e) => <li key={e.seq}>{e.seq}. {e.type}{e.actor ? ` · ${names[e.actor] ?? e.actor}` : ""}</li>)}</ol>
      )}
      {view && <details><summary>{t("realtime.view")}</summary><ViewTree value={view as never} names={names} /></details>}
    </section>
  );
}
