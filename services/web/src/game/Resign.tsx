// Giving my seat up, asked twice: a resignation cannot be taken back. A bot plays the seat from then on
// (with two players the other wins; the lobby's rule, docs/seats.md).
import { useState } from "preact/hooks";
import { api } from "../api/client";
import { t } from "../i18n";
import { ErrorNote } from "../ui/ErrorNote";
import { useAction } from "../ui/hooks";

export function Resign({ gameId, onResigned }: { gameId: string; onResigned: () => void }) {
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
          await api.resign(gameId);
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
