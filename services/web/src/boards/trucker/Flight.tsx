// After building: the flight board (a ring of spaces, each ship's marker where it flies; laps count),
// the card being played and its progress, and each player's ship facts and credits. The answers to
// the card's decisions are in the generic action list (each labelled from the catalogue).
import { ViewTree } from "../../game/ViewTree";
import { t, tx } from "../../i18n";
import type { TruckerData } from "./data";
import type { TruckerView } from "./view";

const R = 110, C = 130;

export function FlightBoard({ data, view, names }: { data: TruckerData; view: TruckerView; names: Record<string, string> }) {
  const spaces = data.trackSpaces;
  const flying = Object.entries(view.players).filter(([, p]) => p.position !== null && !p.gave_up);
  const at = (space: number, radius = R) => {
    const angle = (space / spaces) * 2 * Math.PI - Math.PI / 2;
    return [C + radius * Math.cos(angle), C + radius * Math.sin(angle)] as const;
  };
  return (
    <section class="panel flight" aria-labelledby="trucker-flight-title" data-card={view.card ?? ""}>
      <h3 id="trucker-flight-title">{t("trucker.flightTitle", { round: view.round })}</h3>
      <div class="flight-grid">
        <svg class="track" viewBox={`0 0 ${2 * C} ${2 * C}`} role="img"
             aria-label={t("trucker.trackLabel", { ships: flying.map(([id, p]) => `${names[id] ?? id} ${p.position}`).join(", ") || "—" })}>
          {Array.from({ length: spaces }, (_, space) => {
            const [x, y] = at(space);
            return <circle key={space} class={space === 0 ? "space start" : "space"} cx={x} cy={y} r={6} />;
          })}
          {flying.map(([id, p], index) => {
            const space = (((p.position ?? 0) % spaces) + spaces) % spaces;
            const [x, y] = at(space, R - 18 - index * 4);
            return (
              <g key={id} class="marker" data-player={id} data-position={p.position}>
                <circle cx={x} cy={y} r={9} style={{ fill: cabinColour(data, p.cabin) }} />
                <text x={x} y={y + 4}>{(names[id] ?? id).slice(0, 1).toUpperCase()}</text>
              </g>
            );
          })}
          <text class="deck" x={C} y={C}>{t("trucker.deckLeft", { count: view.deck_count })}</text>
        </svg>
        <div>
          <p>{view.card ? t("trucker.card", { card: view.card }) : t("trucker.noCard")}</p>
          {Object.keys(view.step).length > 0 && <ViewTree value={view.step as never} names={names} />}
        </div>
      </div>
    </section>
  );
}

export function Players({ data, view, names }: { data: TruckerData; view: TruckerView; names: Record<string, string> }) {
  return (
    <section class="panel" aria-labelledby="trucker-players-title">
      <h3 id="trucker-players-title">{t("trucker.players")}</h3>
      <div class="scroll-x">
        <table>
          <thead><tr>
            <th scope="col">{t("trucker.player")}</th><th scope="col">{t("trucker.credits")}</th>
            <th scope="col">{t("trucker.orderTile")}</th><th scope="col">{t("trucker.position")}</th>
            <th scope="col">{t("trucker.crew")}</th><th scope="col">{t("trucker.batteries")}</th>
            <th scope="col">{t("trucker.goods")}</th><th scope="col">{t("trucker.state")}</th>
          </tr></thead>
          <tbody>{Object.entries(view.players).map(([id, p]) => {
            const ship = p.ship;
            const crew = ship ? sum(Object.values(ship.humans)) + Object.keys(ship.aliens).length : 0;
            return (
              <tr key={id} data-player={id}>
                <td><span class="swatch" style={{ background: cabinColour(data, p.cabin) }} /> {names[id] ?? id}</td>
                <td>{p.credits}</td><td>{p.order_tile ?? "—"}</td><td>{p.position ?? "—"}</td>
                <td>{crew}</td><td>{ship ? sum(Object.values(ship.batteries)) : 0}</td>
                <td>{ship ? Object.values(ship.goods).flat().map((g) => tx(`trucker.good.${g}`, g)).join(" ") || "—" : "—"}</td>
                <td>{p.gave_up ? t("trucker.gaveUp") : p.flaws.length ? t("trucker.flaws", { count: p.flaws.length }) : "—"}</td>
              </tr>
            );
          })}</tbody>
        </table>
      </div>
    </section>
  );
}

export function cabinColour(data: TruckerData, cabin: string): string {
  return data.components[cabin]?.color ?? "#888";
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
