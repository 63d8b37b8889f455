// A game's real-time phase (Trucker's building rounds) as its own service's socket tells it: whether
// it is connected, who the service knows me as, and its latest events. The socket itself is the
// table's (game/useRealtime.ts); the board plays over it.
import type { Realtime } from "../game/useRealtime";
import { t } from "../i18n";

export function RealtimePanel({ realtime, names }: { realtime: Realtime; names: Record<string, string> }) {
  const { status, you, events, url, seq } = realtime;
  return (
    <section class="panel realtime" aria-labelledby="realtime-title" data-realtime={status} data-you={you ?? ""}
             data-realtime-seq={seq}>
      <h2 id="realtime-title">{t("realtime.title")}</h2>
      <p role="status">{t(`connection.${status}`)}{you !== undefined &&
        <> · {you ? t("realtime.you", { name: names[you] ?? you }) : t("realtime.watching")}</>}</p>
      <details>
        <summary>{t("realtime.latest")}</summary>
        <p class="muted">{t("realtime.address")} <code>{url}</code></p>
        {events.length > 0 && (
          <ol class="plain">{events.map((e) => <li key={e.seq}>{e.seq}. {e.type}{e.actor ? ` · ${names[e.actor] ?? e.actor}` : ""}</li>)}</ol>
        )}
      </details>
    </section>
  );
}
