// The 21Moon board module: the map with tile lays (click a hex, choose among the legal tiles and
// rotations, confirm) and the maximum-revenue runs the engine suggests, drawn on the map; the market,
// corporations, players, privates and transports. Other actions stay in the generic action list.
import { useEffect, useMemo, useState } from "preact/hooks";
import type { Command, GameEvent } from "../../api/types";
import { t } from "../../i18n";
import { ErrorNote } from "../../ui/ErrorNote";
import type { BoardModule, BoardProps } from "../types";
import { loadData, type Moon21Data } from "./data";
import { MapSvg, type BoardView, type RunLine } from "./MapSvg";
import { Corporations, Market, Players, PrivatesAndTransports, type Moon21View } from "./Panels";
import { TileChooser, type LayOption } from "./TileChooser";

const RUN_COLOURS = ["#d62828", "#0077b6", "#2a9d8f", "#9d4edd"];

function Moon21Board({ view, actions, submit, names, reviewing }: BoardProps) {
  const [data, setData] = useState<Moon21Data | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [hex, setHex] = useState<string | null>(null);
  const [choice, setChoice] = useState<LayOption | null>(null);
  useEffect(() => { loadData().then(setData, setError); }, []);

  const lays = useMemo(() => actions.filter((a) => a.type === "LayTile") as unknown as LayOption[], [actions]);
  const targets = useMemo(() => new Set(lays.map((lay) => lay.hex)), [lays]);
  const run = actions.find((a) => a.type === "RunTransports");
  const runLines = useMemo(() => (run ? linesOf(run) : []), [run]);
  useEffect(() => { if (hex && !targets.has(hex)) { setHex(null); setChoice(null); } }, [targets]);

  const game = view as unknown as Moon21View & { board?: BoardView };
  if (error) return <ErrorNote error={error} />;
  if (!data || !game.board) return <p class="panel">{t("common.loading")}</p>;
  return (
    <div class="moon21" data-board="moon21">
      <div class="panel map-panel">
        <h3>{t("moon21.mapTitle", { round: roundName(game.round) })}</h3>
        <MapSvg data={data} board={game.board} targets={reviewing ? new Set() : targets} selected={hex}
                preview={choice && hex ? { hex, tile: choice.tile, rotation: choice.rotation } : null}
                runs={runLines} onPick={(picked) => { setHex(picked); setChoice(null); }} />
        {targets.size > 0 && !hex && <p class="hint">{t("moon21.layHint", { count: targets.size })}</p>}
        {hex && (
          <TileChooser data={data} hex={hex} options={lays.filter((lay) => lay.hex === hex)} choice={choice}
                       onChoose={setChoice} onCancel={() => { setHex(null); setChoice(null); }}
                       onConfirm={async (lay) => { await submit(lay as unknown as Command); setHex(null); setChoice(null); }} />
        )}
        {run && <Runs lines={runLines} onRun={() => submit(run)} />}
      </div>
      <Market data={data} view={game} />
      <Corporations data={data} view={game} names={names} />
      <div class="two">
        <Players view={game} names={names} />
        <PrivatesAndTransports data={data} view={game} names={names} />
      </div>
    </div>
  );
}

function roundName(round: Moon21View["round"]): string {
  if (typeof round === "string") return round;
  if (round.kind === "OR") return t("moon21.roundOR", { set: round.set, or: round.or });
  return t("moon21.round", { kind: round.kind, set: round.set });
}

function linesOf(run: Command): RunLine[] {
  const byBase = (run.runs ?? {}) as Record<string, { transport: number; stops: string[] }[]>;
  return Object.entries(byBase).flatMap(([base, runs]) => runs.map((r, i) => ({
    key: `${base}-${i}`, stops: r.stops, colour: RUN_COLOURS[(base === "SP" ? 2 : 0) + i] ?? RUN_COLOURS[0],
    label: t("moon21.runLine", { base: t(base === "SP" ? "moon21.baseSP" : "moon21.baseLB"), transport: r.transport, stops: r.stops.join(" → ") }),
  })));
}

function Runs({ lines, onRun }: { lines: RunLine[]; onRun: () => Promise<void> }) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  return (
    <div class="runs" aria-labelledby="runs-title">
      <h4 id="runs-title">{t("moon21.runsTitle")}</h4>
      {lines.length === 0 ? <p>{t("moon21.noRuns")}</p> : (
        <ul class="plain">{lines.map((line) => (
          <li key={line.key}><span class="swatch" style={{ background: line.colour }} aria-hidden="true" /> {line.label}</li>))}
        </ul>
      )}
      <button type="button" data-action="run" disabled={busy}
              onClick={() => { setBusy(true); onRun().then(() => setError(null), setError).finally(() => setBusy(false)); }}>
        {lines.length ? t("moon21.runSuggested") : t("moon21.runNone")}</button>
      <ErrorNote error={error} />
    </div>
  );
}

function describe(event: GameEvent, names: Record<string, string>): string | null {
  const d = (event.data ?? {}) as Record<string, unknown>;
  const who = (id: unknown) => names[String(id)] ?? String(id);
  switch (event.type) {
    case "TileLaid": return t("moon21.log.tileLaid", { corp: String(d.corp), tile: String(d.tile), hex: String(d.hex), rotation: Number(d.rotation), cost: Number(d.cost) });
    case "ShareBought": return t("moon21.log.shareBought", {
      who: who(String(d.buyer).replace(/^[pc]:/, "")), corp: String(d.cert).split("_")[0], price: Number(d.price),
      source: t(d.source === "pool" ? "moon21.holder.pool" : "moon21.holder.ipo") });
    case "TransportsRun": return t("moon21.log.transportsRun", { corp: String(d.corp), base: String(d.base), revenue: Number(d.revenue) });
    case "CorporationStarted": return t("moon21.log.corpStarted", { who: who(d.player), corp: String(d.corp), par: Number(d.par) });
    default: return null;
  }
}

export const board: BoardModule = { Board: Moon21Board, describe, handles: ["LayTile", "RunTransports"] };
