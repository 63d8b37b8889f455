// The lobby: my games (with a badge where I am to act), quick play, and every table with filters.
import { useEffect, useState } from "preact/hooks";
import { api, type TableQuery } from "../api/client";
import type { Table, TableStatus } from "../api/types";
import { t } from "../i18n";
import { href } from "../router";
import { ErrorNote } from "../ui/ErrorNote";
import { gameName, useEngines } from "../ui/engines";
import { useLoad, useSession } from "../ui/hooks";
import { MyGames } from "./MyGames";
import { QuickPlay } from "./QuickPlay";
import { SignIn } from "./Account";

const PAGE = 20;
const POLL_MS = 10_000;
const STATUSES: TableStatus[] = ["open", "playing", "finished"];

export function LobbyScreen() {
  const me = useSession();
  return (
    <div class="lobby">
      {me ? <MyGames me={me.playerId} /> : <SignIn />}
      {me && <QuickPlay />}
      <TableList />
    </div>
  );
}

function TableList() {
  const engines = useEngines();
  const [filter, setFilter] = useState<TableQuery>({ status: "open" });
  const [offset, setOffset] = useState(0);
  const tables = useLoad(() => api.listTables({ ...filter, offset, limit: PAGE }), [JSON.stringify(filter), offset]);
  useEffect(() => setOffset(0), [JSON.stringify(filter)]);
  useEffect(() => {
    const timer = window.setInterval(() => document.visibilityState === "visible" && tables.reload(), POLL_MS);
    return () => window.clearInterval(timer);
  }, [tables.reload]);
  const page = tables.data;
  return (
    <section class="panel" aria-labelledby="tables-title">
      <div class="row spread">
        <h2 id="tables-title">{t("lobby.tables")}</h2>
        <a class="button" href={href({ name: "create" })}>{t("lobby.newTable")}</a>
      </div>
      <form class="filters" aria-label={t("lobby.filters")} onSubmit={(e) => e.preventDefault()}>
        <div>
          <label for="filter-game">{t("lobby.filterGame")}</label>
          <select id="filter-game" value={filter.game ?? ""} onChange={(e) => setFilter({ ...filter, game: e.currentTarget.value || undefined })}>
            <option value="">{t("lobby.anyGame")}</option>
            {(engines.data ?? []).map((engine) => <option value={engine.name}>{gameName(engine.name)}</option>)}
          </select>
        </div>
        <div>
          <label for="filter-status">{t("lobby.filterStatus")}</label>
          <select id="filter-status" value={filter.status ?? ""}
                  onChange={(e) => setFilter({ ...filter, status: (e.currentTarget.value || undefined) as TableStatus | undefined })}>
            <option value="">{t("lobby.anyStatus")}</option>
            {STATUSES.map((status) => <option value={status}>{t(`status.${status}`)}</option>)}
          </select>
        </div>
        <div>
          <label for="filter-seats">{t("lobby.filterFreeSeats")}</label>
          <input id="filter-seats" type="number" min={0} max={16} inputMode="numeric" value={filter.free_seats ?? ""}
                 onInput={(e) => setFilter({ ...filter, free_seats: e.currentTarget.value === "" ? undefined : Number(e.currentTarget.value) })} />
        </div>
        <button type="button" class="secondary" onClick={tables.reload}>{t("lobby.refresh")}</button>
      </form>
      <ErrorNote error={tables.error} />
      {page && page.items.length === 0 && <p>{t("lobby.noTables")}</p>}
      {page && page.items.length > 0 && <TableRows tables={page.items} />}
      {page && page.total > PAGE && (
        <nav class="pager" aria-label={t("lobby.pages")}>
          <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>{t("lobby.previous")}</button>
          <span>{t("lobby.pageOf", { from: offset + 1, to: Math.min(offset + PAGE, page.total), total: page.total })}</span>
          <button type="button" disabled={offset + PAGE >= page.total} onClick={() => setOffset(offset + PAGE)}>{t("lobby.next")}</button>
        </nav>
      )}
    </section>
  );
}

export function TableRows({ tables, badge }: { tables: Table[]; badge?: (table: Table) => string | null }) {
  return (
    <ul class="tables" aria-live="polite">
      {tables.map((table) => {
        const seated = table.seats.filter((s) => s.player_id).map((s) => s.name ?? s.player_id).join(", ");
        const note = badge?.(table);
        return (
          <li key={table.table_id} class="table-row" data-table={table.table_id}>
            <a href={href({ name: "table", id: table.table_id })}>
              <strong>{gameName(table.game)}</strong>
              <span class={`status ${table.status}`}>{t(`status.${table.status}`)}</span>
              <span>{t("lobby.seats", { taken: table.seats.length - countFree(table), seats: table.seats.length })}</span>
              <span class="players">{seated || t("lobby.empty")}</span>
              {table.private && <span class="tag">{t("lobby.private")}</span>}
              {note && <span class="badge">{note}</span>}
            </a>
          </li>
        );
      })}
    </ul>
  );
}

const countFree = (table: Table) => table.seats.filter((s) => !s.player_id).length;
