// 2038's players, private companies and the ships for sale.
import { t } from "../../i18n";
import { holderName, type T2038Data } from "./data";
import { money } from "./Companies";
import type { T2038View } from "./view";

export function Players({ data, view, names }: { data: T2038Data; view: T2038View; names: Record<string, string> }) {
  const toAct = new Set([view.turn, ...view.pending.map((p) => p[1])].filter(Boolean));
  return (
    <section class="panel" aria-labelledby="t2038-players-title">
      <h3 id="t2038-players-title">{t("t2038.players")}</h3>
      <div class="scroll-x">
        <table>
          <thead><tr><th scope="col">{t("game.player")}</th><th scope="col">{t("t2038.cash")}</th>
            <th scope="col">{t("t2038.shares")}</th><th scope="col">{t("t2038.companies")}</th></tr></thead>
          <tbody>
            {view.players.map((player) => {
              const shares = Object.entries(view.shares).map(([corp, holders]) => [corp, holders[`p:${player}`] ?? 0] as const)
                .filter(([, units]) => units > 0).map(([corp, units]) => `${corp} ${units * 10}%`);
              const owned = Object.entries(view.company_owner).filter(([, owner]) => owner === `p:${player}`)
                .map(([company]) => data.entities.independents[company]?.sym ?? data.entities.privates[company]?.name ?? company);
              return (
                <tr key={player} data-player={player} class={toAct.has(player) ? "to-act" : ""}>
                  <th scope="row">{names[player] ?? player}
                    {view.first_player === player && <span class="tag">{t("t2038.firstPlayer")}</span>}</th>
                  <td>{money(view.ledger.cash[`p:${player}`])}</td>
                  <td>{shares.join(", ") || "—"}</td>
                  <td>{owned.join(", ") || "—"}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export function PrivatesAndShips({ data, view, names }: { data: T2038Data; view: T2038View; names: Record<string, string> }) {
  const forSale = new Map<number, { count: number }>();
  for (const ship of Object.values(view.ships)) {
    if (ship.owner !== "bank") continue;
    forSale.set(ship.phase, { count: (forSale.get(ship.phase)?.count ?? 0) + 1 });
  }
  const prices = (phase: number) => Object.entries(data.entities.ships[String(phase)] ?? {})
    .filter(([, spec]) => Array.isArray(spec)).map(([kind, spec]) => t("t2038.shipSpec", {
      kind: t(kind === "freighter" ? "t2038.freighter" : kind === "tug" ? "t2038.tug" : "t2038.scout"),
      movement: (spec as number[])[0], holds: (spec as number[])[1], price: (spec as number[])[2] }));
  return (
    <section class="panel" aria-labelledby="t2038-privates-title">
      <h3 id="t2038-privates-title">{t("t2038.privates")}</h3>
      <ul class="plain">
        {Object.entries(data.entities.privates).map(([number, company]) => {
          const owner = view.company_owner[number] ?? "";
          return <li key={number} data-private={number}><strong>{company.name}</strong> ({money(company.income)}):{" "}
            {owner === "closed" ? t("t2038.closed") : owner ? holderName(data, owner, names) : t("t2038.unsold")}</li>;
        })}
      </ul>
      <h3>{t("t2038.shipsForSale")}</h3>
      <ul class="plain">
        {[...forSale].sort(([a], [b]) => a - b).map(([phase, entry]) => (
          <li key={phase} data-ships-phase={phase}>{t("t2038.shipPhase", { phase, count: entry.count })} {prices(phase).join(" · ")}</li>
        ))}
        {forSale.size === 0 && <li class="muted">{t("common.none")}</li>}
      </ul>
    </section>
  );
}
