// 2038's stock market, corporations and Independents, drawn from the view and the engine's data.
import { formatNumber, t, tx } from "../../i18n";
import { COLOURS, holderName, priceAt, type T2038Data } from "./data";
import type { T2038View } from "./view";

export const money = (value: number | undefined) => t("t2038.money", { amount: formatNumber(value ?? 0) });
const cash = (view: T2038View, holder: string) => view.ledger.cash[holder] ?? 0;
const shipsOf = (view: T2038View, holder: string) =>
  Object.entries(view.ships).filter(([, ship]) => ship.owner === holder).map(([id, ship]) => `${id} ${ship.kind} ${ship.movement}/${ship.holds}`);

export function Market({ data, view }: { data: T2038Data; view: T2038View }) {
  const at = new Map<string, string[]>();
  for (const [corp, position] of Object.entries(view.market.positions)) {
    const key = position.join(",");
    at.set(key, [...(at.get(key) ?? []), corp]);
  }
  return (
    <section class="panel market" aria-labelledby="t2038-market-title">
      <h3 id="t2038-market-title">{t("t2038.market")}</h3>
      <div class="scroll-x">
        <table class="market-grid">
          <tbody>
            {data.market.rows.map((row, r) => (
              <tr key={r}>
                {row.map((price, c) => (
                  <td key={c}>
                    <span class="price">{price}</span>
                    {(at.get(`${r},${c}`) ?? []).map((corp) => (
                      <span key={corp} class="chip" style={{ background: COLOURS[corp] }} data-market={corp}>{corp}</span>
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

export function Corporations({ data, view, names }: { data: T2038Data; view: T2038View; names: Record<string, string> }) {
  return (
    <section class="panel" aria-labelledby="t2038-corps-title">
      <h3 id="t2038-corps-title">{t("t2038.corporations")}</h3>
      <div class="scroll-x">
        <table class="wide">
          <thead><tr>
            <th scope="col">{t("t2038.corporation")}</th><th scope="col">{t("t2038.president")}</th>
            <th scope="col">{t("t2038.price")}</th><th scope="col">{t("t2038.treasury")}</th>
            <th scope="col">{t("t2038.shares")}</th><th scope="col">{t("t2038.ships")}</th><th scope="col">{t("t2038.counters")}</th>
          </tr></thead>
          <tbody>
            {Object.entries(data.entities.corporations).map(([id, corp]) => {
              const launched = view.launched.includes(id);
              const counters = view.counters_left[id] ?? {};
              return (
                <tr key={id} data-corp={id} class={view.operator === `c:${id}` ? "operating" : ""}>
                  <th scope="row"><span class="chip" style={{ background: COLOURS[id] }}>{id}</span> {corp.name}
                    {launched && view.corp_kind[id] && view.corp_kind[id] !== "public" && <span class="tag">{tx(`t2038.kind.${view.corp_kind[id]}`, view.corp_kind[id])}</span>}</th>
                  <td>{view.president[id] ? names[view.president[id]] ?? view.president[id] : "—"}</td>
                  <td>{launched ? priceAt(data, view.market.positions[id]) ?? view.par[id] ?? "—" : "—"}</td>
                  <td>{launched ? money(cash(view, `c:${id}`)) : "—"}</td>
                  <td>{Object.entries(view.shares[id] ?? {}).filter(([, units]) => units > 0)
                        .map(([holder, units]) => `${holderWord(data, holder, names)} ${units * 10}%`).join(", ")}</td>
                  <td>{shipsOf(view, `c:${id}`).join(", ") || "—"}</td>
                  <td>{t("t2038.countersLeft", { base: counters.base ?? 0, refuel: counters.refuel ?? 0, claim: counters.claim ?? 0 })}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** A share holder: a player, a corporation, or one of the chart's boxes (IPO, market, …). */
function holderWord(data: T2038Data, holder: string, names: Record<string, string>): string {
  return holder.includes(":") ? holderName(data, holder, names) : tx(`t2038.box.${holder}`, holder);
}

export function Independents({ data, view, names }: { data: T2038Data; view: T2038View; names: Record<string, string> }) {
  return (
    <section class="panel" aria-labelledby="t2038-independents-title">
      <h3 id="t2038-independents-title">{t("t2038.independents")}</h3>
      <div class="scroll-x">
        <table>
          <thead><tr>
            <th scope="col">{t("t2038.independent")}</th><th scope="col">{t("t2038.owner")}</th><th scope="col">{t("t2038.treasury")}</th>
            <th scope="col">{t("t2038.claimsLeft")}</th><th scope="col">{t("t2038.ships")}</th>
          </tr></thead>
          <tbody>
            {Object.entries(data.entities.independents).map(([number, company]) => {
              const owner = view.company_owner[number] ?? "";
              return (
                <tr key={number} data-independent={company.sym} class={view.operator === `i:${number}` ? "operating" : ""}>
                  <th scope="row"><span class="chip" style={{ background: COLOURS[company.sym ?? ""] }}>{company.sym}</span> {company.name}</th>
                  <td>{owner === "closed" ? t("t2038.closed") : owner ? holderName(data, owner, names) : t("t2038.unsold")}</td>
                  <td>{owner && owner !== "closed" ? money(cash(view, `i:${number}`)) : "—"}</td>
                  <td>{view.independent_claims_left[number] ?? "—"}</td>
                  <td>{shipsOf(view, `i:${number}`).join(", ") || "—"}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
