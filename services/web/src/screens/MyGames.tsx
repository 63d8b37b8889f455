// "My games": the tables I sit at, most urgent first, with a badge where I owe a decision
// (`GET /players/me/tables`, and `?to_act=true` for the badges). Polled while the lobby is open.
import { useEffect } from "preact/hooks";
import { api } from "../api/client";
import type { Table } from "../api/types";
import { t } from "../i18n";
import { ErrorNote } from "../ui/ErrorNote";
import { useLoad } from "../ui/hooks";
import { TableRows } from "./Lobby";

const POLL_MS = 10_000;
const LIMIT = 100;

async function myTables(): Promise<{ tables: Table[]; toAct: Set<string> }> {
  const [all, waiting] = await Promise.all([api.myTables({ limit: LIMIT }), api.myTables({ to_act: true, limit: LIMIT })]);
  return { tables: all.items, toAct: new Set(waiting.items.map((table) => table.table_id)) };
}

export function MyGames({ me }: { me: string }) {
  const mine = useLoad(() => myTables(), [me]);
  useEffect(() => {
    const timer = window.setInterval(() => document.visibilityState === "visible" && mine.reload(), POLL_MS);
    return () => window.clearInterval(timer);
  }, [mine.reload]);
  const data = mine.data;
  return (
    <section class="panel" aria-labelledby="my-games-title">
      <h2 id="my-games-title">{t("lobby.myGames")}
        {data && data.toAct.size > 0 && <span class="badge">{t("lobby.yourTurnCount", { count: data.toAct.size })}</span>}
      </h2>
      <ErrorNote error={mine.error} />
      {data && data.tables.length === 0 && <p>{t("lobby.noGames")}</p>}
      {data && data.tables.length > 0 && (
        <TableRows tables={data.tables} badge={(table) => (data.toAct.has(table.table_id) ? t("lobby.yourTurn") : null)} />
      )}
    </section>
  );
}
