/**
 * A list the gateway answers in pages (users, audit rows, codes): the first page whenever `key` (the
 * filters) changes, the next ones appended by `more()`. An answer to older filters that arrives late is
 * dropped, and so is a page asked for before a reload.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Page<T> {
  readonly rows: readonly T[];
  /** The cursor of the next page, or null after the last. */
  readonly next: number | null;
}

export interface Paged<T> {
  readonly rows: readonly T[] | null;
  readonly error: Error | null;
  readonly loading: boolean;
  readonly loadingMore: boolean;
  readonly hasMore: boolean;
  readonly more: () => Promise<void>;
  /** The first page again; `quiet` keeps the rows shown while it loads (after a change). */
  readonly reload: (quiet?: boolean) => Promise<void>;
}

export function usePaged<T>(key: string, load: (cursor: number | undefined, signal: AbortSignal) => Promise<Page<T>>): Paged<T> {
  const [state, setState] = useState<{ rows: readonly T[] | null; next: number | null; error: Error | null; loading: boolean; loadingMore: boolean }>(
    { rows: null, next: null, error: null, loading: true, loadingMore: false });
  const loadRef = useRef(load);
  loadRef.current = load;
  const latest = useRef<AbortController | null>(null);

  const reload = useCallback(async (quiet = false) => {
    latest.current?.abort();
    const controller = new AbortController();
    latest.current = controller;
    setState((s) => ({ ...s, loading: !quiet, loadingMore: false, rows: quiet ? s.rows : null }));
    try {
      const page = await loadRef.current(undefined, controller.signal);
      if (!controller.signal.aborted) setState({ rows: page.rows, next: page.next, error: null, loading: false, loadingMore: false });
    } catch (error) {
      if (!controller.signal.aborted) setState((s) => ({ ...s, error: error as Error, loading: false }));
    }
  }, [key]);

  const more = useCallback(async () => {
    const controller = latest.current;
    if (!controller || state.next === null || state.loadingMore) return;
    setState((s) => ({ ...s, loadingMore: true }));
    try {
      const page = await loadRef.current(state.next, controller.signal);
      if (!controller.signal.aborted) setState((s) => ({ rows: [...(s.rows ?? []), ...page.rows], next: page.next, error: null, loading: false, loadingMore: false }));
    } catch (error) {
      if (!controller.signal.aborted) setState((s) => ({ ...s, error: error as Error, loadingMore: false }));
    }
  }, [state.next, state.loadingMore]);

  useEffect(() => {
    void reload();
    return () => latest.current?.abort();
  }, [reload]);

  return { rows: state.rows, error: state.error, loading: state.loading, loadingMore: state.loadingMore, hasMore: state.next !== null, more, reload };
}

/** `value` once it has stayed the same for `ms` (a search typed letter by letter asks once). */
export function useSettled<T>(value: T, ms = 200): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
