// Stellar Ventures' corporations (president, shares, treasury, outposts, powers, ships, the agreement)
// and investors (liquid and frozen funds, Alien Technology, votes).
import { formatNumber, t, tx } from "../../i18n";
import { CORP_COLOURS, powerName, type StellarData } from "./data";
import type { StellarView } from "./view";

export const credits = (amount: number) => t("stellar.money", { amount: formatNumber(amount) });

export function Corporations({ data, view, names }: { data: StellarData; view: StellarView; names: Record<string, string> }) {
  const acting = view.corp_turn?.corp ?? view.build?.corp ?? view.auction?.corp;
  return (
    <section class="panel" aria-labelledby="stellar-corps-title">
      <h3 id="stellar-corps-title">{t("stellar.corporations")}</h3>
      <div class="scroll-x">
        <table class="wide">
          <thead><tr>
            <th scope="col">{t("stellar.corporation")}</th><th scope="col">{t("stellar.president")}</th>
            <th scope="col">{t("stellar.shares")}</th><th scope="col">{t("stellar.treasury")}</th>
            <th scope="col">{t("stellar.outposts")}</th><th scope="col">{t("stellar.miningCargo")}</th>
            <th scope="col">{t("stellar.ships")}</th><th scope="col">{t("stellar.powersColumn")}</th>
          </tr></thead>
          <tbody>
            {data.corporations.map((fact) => {
              const corp = view.corporations[fact.id];
              if (!corp) return null;
              return (
                <tr key={fact.id} data-corp={fact.id} class={acting === fact.id ? "operating" : ""}>
                  <th scope="row"><span class="swatch" aria-hidden="true" style={{ background: CORP_COLOURS[fact.id] }} /> {fact.name}
                    <span class="tag">{tx(`stellar.status.${corp.status}`, corp.status)}</span>
                    {corp.signed && <span class="tag ok">{t("stellar.signed", { planets: corp.agreement_planets })}</span>}
                    {!corp.formed && <span class="tag">{t("stellar.notFormed")}</span>}</th>
                  <td>{corp.president ? names[corp.president] ?? corp.president : "—"}</td>
                  <td>{t("stellar.sharesOf", { issued: corp.issued, total: corp.shares_total })}{" "}
                    {Object.entries(corp.holders).map(([player, count]) => `${names[player] ?? player} ${count}`).join(", ")}</td>
                  <td>{credits(corp.treasury)}{corp.loans > 0 && <> · {t("stellar.loans", { count: corp.loans })}</>}</td>
                  <td>{t("stellar.outpostsLeft", { supply: corp.supply, boxed: corp.boxed })}</td>
                  <td>{t("stellar.mcCargo", { mc: corp.mining_capacity, cargo: corp.cargo })}</td>
                  <td>{[...corp.delivered.map((l) => t("stellar.shipDelivered", { level: l })),
                        ...corp.ordered.map((l) => t("stellar.shipOrdered", { level: l }))].join(", ") || "—"}</td>
                  <td>{corp.powers.map(powerName).join(", ")}{corp.wormhole && <> · {t("stellar.wormhole")}</>}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export function Investors({ view, names }: { view: StellarView; names: Record<string, string> }) {
  const owing = new Set([...view.pending.map((p) => p.player), view.auction?.order[view.auction.turn]].filter(Boolean));
  return (
    <section class="panel" aria-labelledby="investors-title">
      <h3 id="investors-title">{t("stellar.investors")}</h3>
      <div class="scroll-x">
        <table>
          <thead><tr><th scope="col">{t("game.player")}</th><th scope="col">{t("stellar.liquid")}</th>
            <th scope="col">{t("stellar.frozen")}</th><th scope="col">{t("stellar.cubes")}</th><th scope="col">{t("stellar.votes")}</th></tr></thead>
          <tbody>
            {view.players.map((player) => {
              const investor = view.investors[player];
              return (
                <tr key={player} data-player={player} class={owing.has(player) ? "to-act" : ""}>
                  <th scope="row">{names[player] ?? player}{view.director === player && <span class="tag">{t("stellar.director")}</span>}</th>
                  <td>{credits(investor.liquid)}</td><td>{credits(investor.frozen)}</td>
                  <td>{investor.cubes}</td><td>{investor.votes}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
