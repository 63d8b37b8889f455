// Giving my seat up, asked twice: a resignation cannot be taken back. A bot plays the seat from then on
// (with two players the other wins; the lobby's rule, docs/seats.md). During a phase played live on its
// own service (Trucker's building) it goes on that service's socket (`live`, `giveSeatUp`).
import { useState } from "preact/hooks";
import { api } from "../api/client";
import type { Command } from "../api/types";
import { t } from "../i18n";
import { ErrorNote } from "../ui/ErrorNote";
import { useAction } from "../ui/hooks";
import { giveSeatUp } from "./seats";

export function Resign({ gameId, onResigned, live }: {
  gameId: string; onResigned: () => void; live?: ((command: Command) => Promise<void>) | null;
}) {
  const [asking, setAsking] = useState(false);
  const action = useAction();
  if (!asking) {
    return <button type="button" class="secondary" onClick={() => setAsking(true)}>{t("game.resign")}</button>;
  }
  return (
    <div class="resign" role="group" aria-label={t("game.resign")}>
      <p>{t("game.resignAsk")}</p>
      <div class="row">
        <button type="button" disabled={action.busy} onClick={() => action.run(async () => {
          await giveSeatUp(() => api.resign(gameId), live ?? null);
          setAsking(false);
          onResigned();
        })}>{t("game.resignYes")}</button>
        <button type="button" class="secondary" disabled={action.busy} onClick={() => setAsking(false)}>
          {t("game.resignNo")}</button>
      </div>
      <ErrorNote error={action.error} />
    </div>
  );
}
