// "My games": the tables I sit at, with a badge where I am to act (the view's `to_act`, or my legal
// actions for an engine whose view does not say). Polled while the lobby is open.
import { useEffect } from "preact/hooks";
import { api } from "../api/client";
import type { Table } from "../api/types";
import { t } from "../i18n";
import { ErrorNote } from "../ui/ErrorNote";
import { useLoad } from "../ui/hooks";
import { TableRows } from "./Lobby";

const POLL_MS = 10_000;

async function myTables(me: string): Promise<{ tables: Table[]; toAct: Set<string> }> {
  const pages = await Promise.all((["playing", "open"] as const).map((status) => api.listTables({ status, limit: 100 })));
  const tables = pages.flatMap((page) => page.items).filter((table) => table.seats.some((s) => s.player_id === me));
  const toAct = new Set<string>();
  await Promise.all(tables.filter((table) => table.status === "playing" && table.game_id).map(async (table) => {
    const { view } = await api.view(table.game_id!);
    const mine = Array.isArray(view.to_act) ? view.to_act.includes(me) : (await api.actions(table.game_id!)).length > 0;
    if (mine) toAct.add(table.table_id);
  }));
  return { tables, toAct };
}

export function MyGames({ me }: { me: string }) {
  const mine = useLoad(() => myTables(me), [me]);
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
