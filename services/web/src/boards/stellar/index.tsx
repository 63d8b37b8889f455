// The Stellar Ventures board module: the Alpha map drawn from the engine's data and the view, with
// outposts, wormholes and Amethyst's home chosen by clicking a hex; the auction with a bid box, the
// powers and their drafts, the corporations with their treasuries, the investors, dividends, the
// agreement and the shipyard. Other actions stay in the generic action list.
import { useEffect, useMemo, useState } from "preact/hooks";
import type { GameEvent } from "../../api/types";
import { t, tx } from "../../i18n";
import { ErrorNote } from "../../ui/ErrorNote";
import { HexActions } from "../hex/HexActions";
import type { BoardModule, BoardProps } from "../types";
import "./stellar.css";
import { Corporations, Investors } from "./Corporations";
import { corpName, loadData, type StellarData } from "./data";
import { MapSvg } from "./MapSvg";
import { AUCTION_ACTIONS, AuctionPanel, PowersPanel } from "./Market";
import { AgreementAndShipyard, Dividends } from "./Tables";
import type { StellarView } from "./view";
import { describeEvent, describeMapAction, hexOf, hexWords, MAP_ACTIONS } from "./words";

let shared: StellarData | null = null;      // for log lines, once a board has loaded the data

function StellarBoard({ view: raw, actions, submit, names, reviewing, events }: BoardProps) {
  const [data, setData] = useState<StellarData | null>(shared);
  const [error, setError] = useState<unknown>(null);
  const [hex, setHex] = useState<string | null>(null);
  useEffect(() => { loadData().then((d) => { shared = d; setData(d); }, setError); }, []);
  const view = raw as unknown as StellarView;

  const atHex = useMemo(() => {
    const found = new Map<string, typeof actions>();
    for (const action of actions) {
      const where = hexOf(action);
      if (where) found.set(where, [...(found.get(where) ?? []), action]);
    }
    return found;
  }, [actions]);
  const targets = useMemo(() => new Set(reviewing ? [] : atHex.keys()), [atHex, reviewing]);
  useEffect(() => { if (hex && !targets.has(hex)) setHex(null); }, [targets]);

  if (error) return <ErrorNote error={error} />;
  if (!data || !view.corporations) return <p class="panel">{t("common.loading")}</p>;
  const mine = reviewing ? [] : actions;
  return (
    <div class="stellar" data-board="stellar">
      <div class="panel map-panel">
        <MapSvg data={data} view={view} targets={targets} selected={hex} onPick={setHex} />
        <div class="beside-map">
          <h3>{t("stellar.mapTitle", { era: view.era, round: tx(`stellar.round.${view.round}`, view.round) })}</h3>
          <p class="muted">{turnWords(data, view, names)}</p>
          {targets.size > 0 && !hex && <p class="hint">{t("stellar.actHint", { count: targets.size })}</p>}
          {hex && <HexActions title={t("stellar.atHex", { hex: hexWords(hex) })} options={atHex.get(hex) ?? []} submit={submit}
                              describe={(command) => describeMapAction(data, command)} onClose={() => setHex(null)} />}
          <p class="legend">{t("stellar.legend")}</p>
        </div>
      </div>
      <AuctionPanel data={data} view={view} actions={mine} names={names} submit={submit} />
      <PowersPanel data={data} view={view} actions={mine} submit={submit} />
      <Corporations data={data} view={view} names={names} />
      <div class="two">
        <Investors view={view} names={names} />
        <Dividends data={data} events={events} />
      </div>
      <AgreementAndShipyard data={data} view={view} />
    </div>
  );
}

function turnWords(data: StellarData, view: StellarView, names: Record<string, string>): string {
  const parts = [t("stellar.turnOrder", { corps: view.turn_order.map((c) => corpName(data, c)).join(" → ") })];
  if (view.corp_turn) parts.push(t("stellar.corpTurn", { corp: corpName(data, view.corp_turn.corp),
                                                         step: tx(`stellar.step.${view.corp_turn.step}`, view.corp_turn.step) }));
  if (view.build) parts.push(t("stellar.building", { corp: corpName(data, view.build.corp), who: names[view.build.builder] ?? view.build.builder,
                                                     placed: view.build.placed.length }));
  if (view.director) parts.push(t("stellar.directorIs", { who: names[view.director] ?? view.director }));
  return parts.join(" · ");
}

export const board: BoardModule = {
  Board: StellarBoard,
  describe: (event: GameEvent, names: Record<string, string>) => describeEvent(shared, event, names),
  handles: [...MAP_ACTIONS, ...AUCTION_ACTIONS],
};
