// 2038's map actions and events in words (the rest of its actions use the generic table's words).
import type { Command, GameEvent } from "../../api/types";
import { t, tx } from "../../i18n";
import { holderName, minesOf, type T2038Data } from "./data";
import type { T2038View } from "./view";

/** Action types the map offers (each happens at a hex); the generic action list leaves them out. */
export const MAP_ACTIONS = ["Move", "StartRoute", "PickUp", "ChooseTile", "EndRoute", "PlaceClaim", "BuyIndependentClaim",
  "PlaceBase", "PlaceStation", "UsePrivate"];

/** The hex an action happens at, or null for an action that is not the map's. */
export function hexOf(command: Command, view: T2038View): string | null {
  if (!MAP_ACTIONS.includes(command.type)) return null;
  if (typeof command.hex === "string") return command.hex;
  if (command.type === "StartRoute") return String(command.base);
  if (command.type === "ChooseTile") return view.flight?.choice_hex || view.flight?.hex || null;
  return view.flight?.hex ?? null;                       // PickUp, EndRoute: where the ship is
}

const ore = (letter: string) => tx(`t2038.ore.${letter}`, letter);

function mineWords(data: T2038Data, view: T2038View, hex: string, index: number): { ore: string; value: number } {
  const mine = view.tiles[hex] !== undefined ? minesOf(data, view.tiles[hex])[index] : undefined;
  return { ore: mine ? ore(mine.ore) : "?", value: mine ? (view.claims[`${hex}/${index}`] ? mine.claimed : mine.value) : 0 };
}

export function describeMapAction(data: T2038Data, view: T2038View, c: Command, names: Record<string, string>): string {
  const hex = hexOf(c, view) ?? "";
  switch (c.type) {
    case "Move": return t(c.explore ? "t2038.do.explore" : "t2038.do.move", { hex });
    case "StartRoute": return t(c.pilot ? "t2038.do.startWithPilot" : "t2038.do.start",
                                { ship: String(c.ship), hex, pilot: holderName(data, `i:${c.pilot}`, names) });
    case "PickUp": return t("t2038.do.pickUp", mineWords(data, view, hex, Number(c.mine)));
    case "ChooseTile": return t("t2038.do.chooseTile", { kind: data.kinds[Number(c.tile)] ?? String(c.tile) });
    case "EndRoute": return t("t2038.do.endRoute", { hex });
    case "PlaceClaim": return t("t2038.do.claim", mineWords(data, view, hex, Number(c.mine)));
    case "BuyIndependentClaim": return t("t2038.do.buyClaim", mineWords(data, view, hex, Number(c.mine)));
    case "PlaceBase": return t("t2038.do.base", { hex });
    case "PlaceStation": return t("t2038.do.station", { hex });
    case "UsePrivate": return t("t2038.do.private", { name: data.entities.privates[String(c.company)]?.name ?? String(c.company), hex });
    default: return c.type;
  }
}

/** One log line for the events the map shows; null lets the generic table describe the others. */
export function describeEvent(data: T2038Data | null, event: GameEvent, names: Record<string, string>): string | null {
  const d = (event.data ?? {}) as Record<string, unknown>;
  switch (event.type) {
    case "HexExplored": return t("t2038.log.explored", { hex: String(d.hex), kind: data?.kinds[Number(d.tile)] ?? String(d.tile) });
    case "RouteStarted": return t("t2038.log.routeStarted", { ship: String(d.ship), hex: String(d.hex) });
    case "ShipMoved": return t("t2038.log.moved", { hex: String(d.hex) });
    case "OrePickedUp": return t("t2038.log.pickedUp", { ore: ore(String(d.ore)), value: Number(d.value), hex: String(d.hex) });
    case "RouteEnded": return t(d.delivered ? "t2038.log.delivered" : "t2038.log.routeEnded", { ship: String(d.ship), value: Number(d.value) });
    case "CompanyAcquired": return t("t2038.log.acquired", {
      company: companyName(data, Number(d.company)), owner: data ? holderName(data, String(d.owner), names) : String(d.owner), price: Number(d.price) });
    default: return null;
  }
}

function companyName(data: T2038Data | null, company: number): string {
  return data?.entities.independents[company]?.name ?? data?.entities.privates[company]?.name ?? String(company);
}
