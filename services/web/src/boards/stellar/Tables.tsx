// Stellar Ventures' printed tables beside the board: dividends (and what each corporation was paid last),
// the agreement track, and the shipyard.
import type { GameEvent } from "../../api/types";
import { t, tx } from "../../i18n";
import { corpName, CORP_COLOURS, type StellarData } from "./data";
import type { StellarView } from "./view";

export function Dividends({ data, events }: { data: StellarData; events: GameEvent[] }) {
  const last = new Map<string, { row: number; perShare: number }>();
  for (const event of events) {
    if (event.type !== "DividendPaid" || !event.data) continue;
    last.set(String(event.data.corp), { row: Number(event.data.row), perShare: Number(event.data.per_share) });
  }
  const rows = Object.entries(data.tables.dividend_table);
  return (
    <section class="panel dividends" aria-labelledby="dividends-title">
      <h3 id="dividends-title">{t("stellar.dividends")}</h3>
      {last.size > 0 && (
        <ul class="plain">{[...last].map(([corp, paid]) => (
          <li key={corp} data-dividend={corp}><span class="swatch" aria-hidden="true" style={{ background: CORP_COLOURS[corp] }} />{" "}
            {t("stellar.lastDividend", { corp: corpName(data, corp), row: paid.row, amount: paid.perShare })}</li>))}
        </ul>
      )}
      <div class="scroll-x">
        <table class="compact">
          <thead><tr><th scope="col">{t("stellar.row")}</th>
            {Object.keys(data.tables.status_at_shares).map((column) => <th scope="col" key={column}>{tx(`stellar.status.${column}`, column)}</th>)}</tr></thead>
          <tbody>
            {rows.map(([row, values]) => {
              const paidHere = [...last].filter(([, paid]) => String(paid.row) === row).map(([corp]) => corp);
              return (
                <tr key={row} class={paidHere.length ? "paid" : ""}>
                  <th scope="row">{row}{paidHere.map((corp) => <span key={corp} class="swatch" aria-hidden="true" style={{ background: CORP_COLOURS[corp] }} />)}</th>
                  {values.map((value, i) => <td key={i}>{value}</td>)}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export function AgreementAndShipyard({ data, view }: { data: StellarData; view: StellarView }) {
  const signed = Object.values(view.corporations).filter((c) => c.signed);
  return (
    <section class="panel" aria-labelledby="agreement-title">
      <h3 id="agreement-title">{t("stellar.agreement")}</h3>
      <p>{t("stellar.agreementState", { tiles: view.face_down_alien_tiles.length, mc: view.alien_mining_capacity })}{" "}
        {signed.length ? t("stellar.signedBy", { corps: signed.map((c) => corpName(data, c.id)).join(", ") }) : t("stellar.nobodySigned")}</p>
      <div class="scroll-x">
        <table class="compact">
          <thead><tr><th scope="col">{t("stellar.alienPlanets")}</th><th scope="col">{t("stellar.bonusDividend")}</th>
            <th scope="col">{t("stellar.endBonus")}</th></tr></thead>
          <tbody>{data.tables.agreement_track.map((step) => (
            <tr key={String(step.alien_planets)}><td>{step.alien_planets}</td><td>{step.bonus_dividend_per_share}</td><td>{step.end_bonus_per_share}</td></tr>))}
          </tbody>
        </table>
      </div>
      <h3>{t("stellar.shipyard")}</h3>
      <ul class="plain">
        {data.tables.shipyard.map((section) => {
          const left = view.shipyard[String(section.level)];
          return <li key={section.level} data-shipyard={section.level}>{t("stellar.shipLevel", { level: section.level })}:{" "}
            {left === undefined ? "—" : left < 0 ? t("stellar.unlimited") : t("stellar.shipsLeft", { count: left })}
            {section.scraps_level !== null && <> · {t("stellar.scraps", { level: section.scraps_level })}</>}</li>;
        })}
      </ul>
      <p class="muted">{t("stellar.supplies", { cubes: view.technology_supply, tax: view.tax_box, tiles: view.face_down_shipyard_tiles.length })}</p>
    </section>
  );
}
