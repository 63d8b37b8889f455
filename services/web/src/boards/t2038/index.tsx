// The 2038 board module: the asteroid belt drawn from the engine's data and the view, with every map
// action (routes, exploration, claims, bases, stations, private counters) chosen by clicking a hex; the
// route helper's proposals drawn and its next step one click away; the market, corporations,
// Independents, players, privates and ships beside it. Other actions stay in the generic action list.
import { useEffect, useMemo, useState } from "preact/hooks";
import type { GameEvent } from "../../api/types";
import { t, tx } from "../../i18n";
import { ErrorNote } from "../../ui/ErrorNote";
import { HexActions } from "../hex/HexActions";
import type { BoardModule, BoardProps } from "../types";
import "./t2038.css";
import { Corporations, Independents, Market, money } from "./Companies";
import { loadData, type T2038Data } from "./data";
import { Players, PrivatesAndShips } from "./Holdings";
import { MapSvg } from "./MapSvg";
import { Route } from "./Route";
import type { T2038View } from "./view";
import { describeEvent, describeMapAction, hexOf, MAP_ACTIONS } from "./words";

let shared: T2038Data | null = null;      // for log lines, once a board has loaded the data

function T2038Board({ view: raw, actions, submit, names, reviewing }: BoardProps) {
  const [data, setData] = useState<T2038Data | null>(shared);
  const [error, setError] = useState<unknown>(null);
  const [hex, setHex] = useState<string | null>(null);
  useEffect(() => { loadData().then((d) => { shared = d; setData(d); }, setError); }, []);
  const view = raw as unknown as T2038View;

  const atHex = useMemo(() => {
    const found = new Map<string, typeof actions>();
    for (const action of actions) {
      const where = hexOf(action, view);
      if (where) found.set(where, [...(found.get(where) ?? []), action]);
    }
    return found;
  }, [actions, view]);
  const targets = useMemo(() => new Set(reviewing ? [] : atHex.keys()), [atHex, reviewing]);
  useEffect(() => { if (hex && !targets.has(hex)) setHex(null); }, [targets]);

  if (error) return <ErrorNote error={error} />;
  if (!data || !view.tiles) return <p class="panel">{t("common.loading")}</p>;
  return (
    <div class="t2038" data-board="t2038">
      <div class="panel map-panel">
        <MapSvg data={data} view={view} targets={targets} selected={hex} onPick={setHex} />
        <div class="beside-map">
          <h3>{t("t2038.mapTitle", { round: roundWords(view), phase: view.phase })}</h3>
          <p class="muted">{t("t2038.status", { pool: view.pool, bank: money(view.ledger.cash.bank) })}
            {view.operator && <> · {t("t2038.operating", { who: operatorName(data, view) })}</>}</p>
          {targets.size > 0 && !hex && <p class="hint">{t("t2038.actHint", { count: targets.size })}</p>}
          {hex && <HexActions title={t("t2038.atHex", { hex })} options={atHex.get(hex) ?? []} submit={submit}
                              describe={(command) => describeMapAction(data, view, command, names)} onClose={() => setHex(null)} />}
          <Route data={data} view={view} actions={reviewing ? [] : actions} names={names} submit={submit} />
        </div>
      </div>
      <Market data={data} view={view} />
      <Corporations data={data} view={view} names={names} />
      <div class="two">
        <Independents data={data} view={view} names={names} />
        <Players data={data} view={view} names={names} />
      </div>
      <PrivatesAndShips data={data} view={view} names={names} />
    </div>
  );
}

function roundWords(view: T2038View): string {
  const round = tx(`t2038.round.${view.round}`, view.round);
  return view.round === "operating" ? t("t2038.roundOR", { round, set: view.set_number, or: view.or_number })
    : t("t2038.roundSet", { round, set: view.set_number });
}

function operatorName(data: T2038Data, view: T2038View): string {
  if (view.operator === "probe") return t("t2038.probe");
  const [kind, id] = view.operator.split(":");
  return kind === "i" ? data.entities.independents[id]?.name ?? id : data.entities.corporations[id]?.name ?? id;
}

export const board: BoardModule = {
  Board: T2038Board,
  describe: (event: GameEvent, names: Record<string, string>) => describeEvent(shared, event, names),
  handles: MAP_ACTIONS,
};
