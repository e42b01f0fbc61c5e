/**
 * The rows of the logs page: one page of the filtered rows (continued with a `before` cursor), and in
 * live mode the rows written since, asked for every two seconds and put at the top, marked new.
 * Live mode waits while the tab is hidden (nobody reads it, and the gateway is not asked for nothing)
 * and checks at once when the tab shows again. An answer to an older question is dropped.
 */
import { useEffect, useRef, useState } from 'preact/hooks';

export interface LogRowBase {
  readonly id: number;
}

export interface LogPage<R> {
  readonly data: readonly R[];
  readonly next_before: number | null;
}

export type LogQuery = Record<string, string | number | undefined>;

export interface LogSource<R extends LogRowBase> {
  /** A page of rows, newest first. */
  list(query: LogQuery, signal: AbortSignal): Promise<LogPage<R>>;
  /** The rows newer than `afterId` (any order, at most a page). */
  since(query: LogQuery, afterId: number, signal: AbortSignal): Promise<readonly R[]>;
}

export const LIVE_INTERVAL_MS = 2000;
/** Live mode keeps at most this many rows on the page. */
const MAX_ROWS = 500;

export interface LiveState {
  readonly hidden: boolean;
  readonly checkedAt: Date | null;
  readonly error: Error | null;
  /** Rows that arrived since live mode started. */
  readonly arrived: number;
}

export interface LogFeed<R> {
  readonly rows: readonly R[];
  /** Ids of the rows live mode added. */
  readonly fresh: ReadonlySet<number>;
  readonly next: number | null;
  readonly loading: boolean;
  readonly error: Error | null;
  readonly live: LiveState;
  readonly reload: () => void;
}

/**
 * `query()` is asked afresh for each request (a preset range counts back from now); `queryKey` says
 * when the filters changed, and a new page is loaded.
 */
export function useLogFeed<R extends LogRowBase>(source: LogSource<R>, query: () => LogQuery, queryKey: string, before: number | null, live: boolean): LogFeed<R> {
  const [page, setPage] = useState<{ rows: readonly R[]; fresh: ReadonlySet<number>; next: number | null; loading: boolean; error: Error | null }>(
    { rows: [], fresh: new Set(), next: null, loading: true, error: null });
  const [liveState, setLiveState] = useState<LiveState>({ hidden: document.hidden, checkedAt: null, error: null, arrived: 0 });
  const [reloads, setReloads] = useState(0);
  const rows = useRef<readonly R[]>([]);
  rows.current = page.rows;
  const loaded = useRef(false);
  const queryRef = useRef(query);
  queryRef.current = query;
  const sourceRef = useRef(source);
  sourceRef.current = source;

  useEffect(() => {
    const controller = new AbortController();
    loaded.current = false;
    setPage((p) => ({ ...p, loading: true }));
    sourceRef.current.list({ ...queryRef.current(), before: before ?? undefined }, controller.signal).then(
      (answer) => {
        if (controller.signal.aborted) return;
        loaded.current = true;
        setPage({ rows: answer.data, fresh: new Set(), next: answer.next_before, loading: false, error: null });
      },
      (error: Error) => {
        if (!controller.signal.aborted) setPage({ rows: [], fresh: new Set(), next: null, loading: false, error });
      },
    );
    return () => controller.abort();
  }, [queryKey, before, reloads]);

  useEffect(() => {
    if (!live || before !== null) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let controller: AbortController | null = null;
    let stopped = false;
    setLiveState({ hidden: document.hidden, checkedAt: null, error: null, arrived: 0 });

    const schedule = (ms: number): void => {
      clearTimeout(timer);
      if (!stopped && !document.hidden) timer = setTimeout(() => void tick(), ms);
    };
    const tick = async (): Promise<void> => {
      if (stopped || document.hidden) return;
      if (!loaded.current) return schedule(250);
      const top = rows.current[0]?.id ?? 0;
      controller = new AbortController();
      try {
        const found = (await sourceRef.current.since(queryRef.current(), top, controller.signal)).filter((r) => r.id > top);
        if (stopped) return;
        if (found.length > 0) {
          const newest = [...found].sort((a, b) => b.id - a.id);
          setPage((p) => ({
            ...p,
            rows: [...newest, ...p.rows.filter((r) => r.id <= top)].slice(0, MAX_ROWS),
            fresh: new Set([...p.fresh, ...newest.map((r) => r.id)]),
          }));
        }
        setLiveState((s) => ({ ...s, hidden: false, checkedAt: new Date(), error: null, arrived: s.arrived + found.length }));
      } catch (error) {
        if (!stopped) setLiveState((s) => ({ ...s, error: error as Error }));
      }
      schedule(LIVE_INTERVAL_MS);
    };
    const visibility = (): void => {
      setLiveState((s) => ({ ...s, hidden: document.hidden }));
      if (document.hidden) {
        clearTimeout(timer);
        controller?.abort();
      } else {
        schedule(0);
      }
    };
    document.addEventListener('visibilitychange', visibility);
    schedule(LIVE_INTERVAL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
      controller?.abort();
      document.removeEventListener('visibilitychange', visibility);
    };
  }, [live, before, queryKey, reloads]);

  return { ...page, live: liveState, reload: () => setReloads((n) => n + 1) };
}
