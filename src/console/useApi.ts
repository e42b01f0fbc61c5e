/**
 * A page's data from one GET route: loaded when the page shows and whenever the query changes,
 * reloadable after a change, and any answer still in flight is dropped when a newer one is asked for.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { call, type Answer, type CallOptions } from './api.ts';
import type { ApiRouteId } from '../contract/api/routes.ts';

export interface Loaded<T> {
  readonly data: T | null;
  readonly error: Error | null;
  readonly loading: boolean;
  /** Asks again; `quiet` keeps the shown data while it loads (polling, refresh after a change). */
  readonly reload: (quiet?: boolean) => Promise<void>;
}

export function useApi<K extends ApiRouteId>(id: K, options: CallOptions<K> = {}): Loaded<Answer<K>> {
  const [state, setState] = useState<{ data: Answer<K> | null; error: Error | null; loading: boolean }>({ data: null, error: null, loading: true });
  const key = JSON.stringify([id, options.query ?? null, options.apiKey ?? null]);
  const latest = useRef<AbortController | null>(null);
  const optionsRef = useRef(options);
  optionsRef.current = options;

  const reload = useCallback(async (quiet = false) => {
    latest.current?.abort();
    const controller = new AbortController();
    latest.current = controller;
    if (!quiet) setState((s) => ({ ...s, loading: true }));
    try {
      const data = await call(id, { ...optionsRef.current, signal: controller.signal });
      if (!controller.signal.aborted) setState({ data, error: null, loading: false });
    } catch (error) {
      if (!controller.signal.aborted) setState((s) => ({ data: quiet ? s.data : null, error: error as Error, loading: false }));
    }
  }, [key]);

  useEffect(() => {
    void reload();
    return () => latest.current?.abort();
  }, [reload]);

  return { ...state, reload };
}
