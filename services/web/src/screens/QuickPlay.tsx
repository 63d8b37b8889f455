// Quick play: pick a game and how many players; the lobby seats me at the best waiting table of that
// kind or opens one (POST /quickplay), which starts by itself once full. The table's page then shows the
// seats filling; asking again while waiting answers the same table.
import { useState } from "preact/hooks";
import { api } from "../api/client";
import { t } from "../i18n";
import { go } from "../router";
import { ErrorNote } from "../ui/ErrorNote";
import { gameName, useEngines } from "../ui/engines";
import { useAction } from "../ui/hooks";

export function QuickPlay() {
  const engines = useEngines();
  const [game, setGame] = useState("");
  const [seats, setSeats] = useState<number | null>(null);
  const [rated, setRated] = useState(true);
  const asking = useAction();
  const engine = engines.data?.find((e) => e.name === game) ?? engines.data?.[0];
  if (!engine) return <ErrorNote error={engines.error} />;
  const players = seats ?? engine.min_players;

  const submit = (event: Event) => {
    event.preventDefault();
    void asking.run(async () => {
      const table = await api.quickPlay({ game: engine.name, seats: players, rated });
      go({ name: "table", id: table.table_id });
    });
  };
  return (
    <section class="panel" aria-labelledby="quick-play-title">
      <h2 id="quick-play-title">{t("lobby.quickPlay")}</h2>
      <p class="muted">{t("lobby.quickPlayHint")}</p>
      <form class="quick-play" onSubmit={submit}>
        <div>
          <label for="quick-game">{t("lobby.quickPlayGame")}</label>
          <select id="quick-game" value={engine.name} onChange={(e) => { setGame(e.currentTarget.value); setSeats(null); }}>
            {engines.data!.map((e) => <option value={e.name}>{gameName(e.name)}</option>)}
          </select>
        </div>
        <div>
          <label for="quick-seats">{t("lobby.quickPlaySeats")}</label>
          <input id="quick-seats" type="number" required min={engine.min_players} max={engine.max_players} value={players}
                 inputMode="numeric" onInput={(e) => setSeats(Number(e.currentTarget.value))} />
        </div>
        <label class="check"><input type="checkbox" checked={rated} onChange={(e) => setRated(e.currentTarget.checked)} />
          {t("lobby.quickPlayRated")}</label>
        <button type="submit" disabled={asking.busy}>{t("lobby.quickPlayGo")}</button>
      </form>
      <ErrorNote error={asking.error} />
    </section>
  );
}
