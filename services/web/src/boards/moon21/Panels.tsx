// 21Moon's tables beside the map: the stock market, corporations, players, privates and transports.
import { formatNumber, t, tx } from "../../i18n";
import { CORP_COLOURS, type Moon21Data } from "./data";

export interface Corporation {
  started: boolean; floated: boolean; closed: boolean; receivership: boolean; cash: number; president: string | null;
  price: number | null; market: number[]; transports: Record<string, number[]>; depots_left: number[];
  certificates: string[]; holdings: Record<string, number>;
}
export interface PlayerRow { name: string; cash: number; bankrupt: boolean; certificates: string[]; privates: string[] }
export interface Moon21View {
  round: { kind: string; set: number; or: number } | string;
  to_act?: string[];
  players: PlayerRow[];
  priority: string;
  bank: number;
  held_back: string;
  phase: string;
  space_port_value: number;
  transport_stack: number[];
  corporations: Record<string, Corporation>;
  privates: Record<string, string>;
  operating: { corp: string; step: string } | null;
}

const money = (value: number) => t("moon21.money", { amount: formatNumber(value) });
const holderName = (holder: string, names: Record<string, string>) => {
  const [kind, id] = holder.split(":");
  if (kind === "p") return names[id] ?? id;
  if (kind === "c") return id;
  return tx(`moon21.holder.${holder}`, holder);
};

export function Market({ data, view }: { data: Moon21Data; view: Moon21View }) {
  const at = new Map<string, string[]>();
  for (const [corp, c] of Object.entries(view.corporations)) {
    if (c.market.length === 2) at.set(c.market.join(","), [...(at.get(c.market.join(",")) ?? []), corp]);
  }
  const par = new Set(data.market.par_boxes.map((b) => `${b.row},${b.col}`));
  return (
    <section class="panel market" aria-labelledby="market-title">
      <h3 id="market-title">{t("moon21.market")}</h3>
      <div class="scroll-x">
        <table class="market-grid">
          <tbody>
            {data.market.grid.map((row, r) => (
              <tr key={r}>
                {row.map((price, c) => (
                  <td key={c} class={price === null ? "void" : par.has(`${r},${c}`) ? "par" : ""}>
                    {price !== null && <span class="price">{price}</span>}
                    {(at.get(`${r},${c}`) ?? []).map((corp) => (
                      <span key={corp} class="chip" style={{ background: CORP_COLOURS[corp] }} data-market={corp}>{corp}</span>
                    ))}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export function Corporations({ data, view, names }: { data: Moon21Data; view: Moon21View; names: Record<string, string> }) {
  const title = Object.fromEntries(data.entities.corporations.map((c) => [c.id, c.name]));
  return (
    <section class="panel" aria-labelledby="corps-title">
      <h3 id="corps-title">{t("moon21.corporations")}</h3>
      <div class="scroll-x">
        <table>
          <thead><tr>
            <th scope="col">{t("moon21.corporation")}</th><th scope="col">{t("moon21.president")}</th>
            <th scope="col">{t("moon21.price")}</th><th scope="col">{t("moon21.treasury")}</th>
            <th scope="col">{t("moon21.transportsLB")}</th><th scope="col">{t("moon21.transportsSP")}</th>
            <th scope="col">{t("moon21.shares")}</th><th scope="col">{t("moon21.state")}</th>
          </tr></thead>
          <tbody>
            {Object.entries(view.corporations).map(([id, c]) => (
              <tr key={id} data-corp={id} class={view.operating?.corp === id ? "operating" : ""}>
                <th scope="row"><span class="chip" style={{ background: CORP_COLOURS[id] }}>{id}</span> {title[id] ?? id}</th>
                <td>{c.president ? names[c.president] ?? c.president : "—"}</td>
                <td>{c.price ?? "—"}</td>
                <td>{c.started ? money(c.cash) : "—"}</td>
                <td>{c.transports.LB?.join(", ") || "—"}</td>
                <td>{c.transports.SP?.join(", ") || "—"}</td>
                <td>{Object.entries(c.holdings).map(([holder, pct]) => `${holderName(holder, names)} ${pct}%`).join(", ")}</td>
                <td>{t(c.closed ? "moon21.closed" : c.receivership ? "moon21.receivership" : c.floated ? "moon21.floated"
                        : c.started ? "moon21.started" : view.held_back === id ? "moon21.heldBack" : "moon21.available")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export function Players({ view, names }: { view: Moon21View; names: Record<string, string> }) {
  return (
    <section class="panel" aria-labelledby="players-title">
      <h3 id="players-title">{t("moon21.players")}</h3>
      <div class="scroll-x">
      <table>
        <thead><tr><th scope="col">{t("game.player")}</th><th scope="col">{t("moon21.cash")}</th>
          <th scope="col">{t("moon21.certificates")}</th><th scope="col">{t("moon21.privates")}</th></tr></thead>
        <tbody>
          {view.players.map((p) => (
            <tr key={p.name} data-player={p.name} class={view.to_act?.includes(p.name) ? "to-act" : ""}>
              <th scope="row">{names[p.name] ?? p.name}{view.priority === p.name && <span class="tag">{t("moon21.priority")}</span>}
                {p.bankrupt && <span class="tag">{t("moon21.bankrupt")}</span>}</th>
              <td>{money(p.cash)}</td>
              <td>{p.certificates.length}</td>
              <td>{p.privates.join(", ") || "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
    </section>
  );
}

export function PrivatesAndTransports({ data, view, names }: { data: Moon21Data; view: Moon21View; names: Record<string, string> }) {
  const costs = Object.fromEntries(data.entities.transports.map((tr) => [tr.type, tr.cost]));
  return (
    <section class="panel" aria-labelledby="privates-title">
      <h3 id="privates-title">{t("moon21.privates")}</h3>
      <ul class="plain">
        {data.entities.privates.map((p) => {
          const owner = view.privates[p.id];
          return <li key={p.id} data-private={p.id}><strong>{p.id}</strong> {p.name}: {owner === "closed" ? t("moon21.closed")
            : owner ? holderName(owner, names) : t("moon21.unsold")}</li>;
        })}
      </ul>
      <h3>{t("moon21.transports")}</h3>
      <p>{t("moon21.phase", { phase: view.phase })} · {t("moon21.spaceport", { value: view.space_port_value })} · {t("moon21.bank", { amount: formatNumber(view.bank) })}</p>
      <p>{t("moon21.nextTransports")} {view.transport_stack.map((type) => t("moon21.transportCost", { type, cost: costs[type] ?? "?" })).join(", ") || "—"}</p>
    </section>
  );
}
