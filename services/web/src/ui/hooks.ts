// Small hooks shared by the screens: the signed-in session and data loaded from the API.
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { onSessionChange, session, type Session } from "../api/auth";

export function useSession(): Session | null {
  const [current, setCurrent] = useState(session());
  useEffect(() => onSessionChange(setCurrent), []);
  return current;
}

export interface Loaded<T> { data: T | null; error: unknown; loading: boolean; reload: () => void }

/** Load with `load` whenever `deps` change; `reload` loads again (e.g. after a push). */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data: T | null; error: unknown; loading: boolean }>(
    { data: null, error: null, loading: true });
  const generation = useRef(0);
  const reload = useCallback(() => {
    const mine = ++generation.current;
    setState((old) => ({ ...old, loading: true }));
    load().then(
      (data) => mine === generation.current && setState({ data, error: null, loading: false }),
      (error) => mine === generation.current && setState((old) => ({ data: old.data, error, loading: false })),
    );
  }, deps);      // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(reload, [reload]);
  return { ...state, reload };
}

/** Run an action (a button's click), keeping its error to show, and whether it is under way. */
export function useAction(): { busy: boolean; error: unknown; run: (action: () => Promise<unknown>) => Promise<void> } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = useCallback(async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run };
}
