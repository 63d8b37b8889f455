// Stellar Ventures' map actions and events in words (the rest use the generic table's words).
import type { Command, GameEvent } from "../../api/types";
import { t } from "../../i18n";
import { corpName, MEGA_EARTH, powerName, type StellarData } from "./data";

/** Action types the map offers (each happens at one hex); the generic action list leaves them out. */
export const MAP_ACTIONS = ["PlaceOutpost", "CreateWormhole", "ChooseHome", "DismantleOutpost"];

export function hexOf(command: Command): string | null {
  return MAP_ACTIONS.includes(command.type) && typeof command.hex === "string" ? command.hex : null;
}

export const hexWords = (hex: string) => (hex === MEGA_EARTH ? t("stellar.megaEarth") : hex);

export function describeMapAction(data: StellarData, command: Command): string {
  const hex = hexWords(String(command.hex));
  switch (command.type) {
    case "PlaceOutpost": return t("stellar.do.outpost", { hex });
    case "CreateWormhole": return t("stellar.do.wormhole", { hex });
    case "ChooseHome": return t("stellar.do.home", { hex });
    case "DismantleOutpost": return t("stellar.do.dismantle", { hex, corp: corpName(data, String(command.corp)) });
    default: return command.type;
  }
}

export function describeEvent(data: StellarData | null, event: GameEvent, names: Record<string, string>): string | null {
  const d = (event.data ?? {}) as Record<string, unknown>;
  const corp = (id: unknown) => (data ? corpName(data, String(id)) : String(id));
  const who = (id: unknown) => names[String(id)] ?? String(id);
  switch (event.type) {
    case "AuctionOpened": return t("stellar.log.auction", { corp: corp(d.corp) });
    case "BidPlaced": return t("stellar.log.bid", { who: who(d.player), amount: Number(d.amount) });
    case "BidPassed": return t("stellar.log.passed", { who: who(d.player) });
    case "ShareSold": return t("stellar.log.shareSold", { who: who(d.player), corp: corp(d.corp), price: Number(d.price) });
    case "PowerGained": return t("stellar.log.power", { corp: corp(d.corp), power: powerName(String(d.power)) });
    case "OutpostPlaced": return t("stellar.log.outpost", { corp: corp(d.corp), hex: hexWords(String(d.hex)) });
    case "DividendPaid": return t("stellar.log.dividend", { corp: corp(d.corp), row: Number(d.row), amount: Number(d.per_share) });
    case "AgreementSigned": return t("stellar.log.signed", { corp: corp(d.corp), hex: hexWords(String(d.hex)) });
    case "ShipOrdered": return t("stellar.log.ship", { corp: corp(d.corp), level: Number(d.level) });
    default: return null;
  }
}
