// The games this lobby serves (GET /engines), loaded once per page.
import { api } from "../api/client";
import type { Engine } from "../api/types";
import { tx } from "../i18n";
import { useLoad, type Loaded } from "./hooks";

let engines: Promise<Engine[]> | null = null;

export function loadEngines(): Promise<Engine[]> {
  engines ??= api.engines().catch((error) => {
    engines = null;       // try again next time
    throw error;
  });
  return engines;
}

export function useEngines(): Loaded<Engine[]> {
  return useLoad(loadEngines, []);
}

export function gameName(game: string): string {
  return tx(`game.${game}`, game);
}
