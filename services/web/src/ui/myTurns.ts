// How many of my games wait for a decision of mine, for the header's badge: read from
// `GET /players/me/tables?to_act=true` while a page shows the badge (again every POLL_MS while the tab
// is visible), and at once when a game socket pushes `your_turn` or a move of mine was taken.
import { useEffect, useState } from "preact/hooks";
import { api } from "../api/client";

const POLL_MS = 15_000;
let count = 0;
let reading: Promise<void> | null = null;
let readAgain = false;
const listeners = new Set<(count: number) => void>();

export function refreshMyTurns(): void {
  if (listeners.size === 0) return;
  if (reading) {
    readAgain = true;           // a push during a read: read once more after it
    return;
  }
  reading = api.myTables({ to_act: true, limit: 1 }).then((page) => {
    count = page.total;
    for (const listener of listeners) listener(count);
  }, () => undefined).finally(() => {
    reading = null;
    if (readAgain) {
      readAgain = false;
      refreshMyTurns();
    }
  });
}

/** The number of my games waiting for me (0 when signed out). */
export function useMyTurns(signedIn: boolean): number {
  const [shown, setShown] = useState(count);
  useEffect(() => {
    if (!signedIn) {
      setShown(0);
      return;
    }
    listeners.add(setShown);
    refreshMyTurns();
    const timer = window.setInterval(() => document.visibilityState === "visible" && refreshMyTurns(), POLL_MS);
    return () => {
      listeners.delete(setShown);
      window.clearInterval(timer);
    };
  }, [signedIn]);
  return signedIn ? shown : 0;
}
