// Screens are addressed by the URL fragment (#/tables/abc), so the lobby serves one page at `/` and no
// client path can shadow an API route.
import { useEffect, useState } from "preact/hooks";

export type Route =
  | { name: "lobby" }
  | { name: "create" }
  | { name: "table"; id: string; invite?: string }
  | { name: "leaderboards"; board?: string }
  | { name: "player"; id: string }
  | { name: "account" };

export function parse(hash: string): Route {
  const [path, search = ""] = hash.replace(/^#\/?/, "").split("?");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  const query = new URLSearchParams(search);
  switch (parts[0]) {
    case "create": return { name: "create" };
    case "tables": return parts[1] ? { name: "table", id: parts[1], invite: query.get("invite") ?? undefined } : { name: "lobby" };
    case "leaderboards": return { name: "leaderboards", board: parts[1] };
    case "players": return parts[1] ? { name: "player", id: parts[1] } : { name: "lobby" };
    case "account": return { name: "account" };
    default: return { name: "lobby" };
  }
}

export function href(route: Route): string {
  switch (route.name) {
    case "lobby": return "#/";
    case "create": return "#/create";
    case "table": return `#/tables/${encodeURIComponent(route.id)}${route.invite ? `?invite=${encodeURIComponent(route.invite)}` : ""}`;
    case "leaderboards": return route.board ? `#/leaderboards/${encodeURIComponent(route.board)}` : "#/leaderboards";
    case "player": return `#/players/${encodeURIComponent(route.id)}`;
    case "account": return "#/account";
  }
}

export function go(route: Route): void {
  location.hash = href(route);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parse(location.hash));
  useEffect(() => {
    const changed = () => setRoute(parse(location.hash));
    window.addEventListener("hashchange", changed);
    return () => window.removeEventListener("hashchange", changed);
  }, []);
  return route;
}
