/**
 * The rows of the logs page: one page of the filtered rows (continued with a `before` cursor), and in
 * live mode the rows written since, asked for every two seconds with `after` (the answer's next_after:
 * every new row exactly once) and put at the top, marked new.
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
  /** Where the rows written after this page begin (the `after` of the next live poll). */
  readonly next_after: number | null;
  readonly limit: number;
}

export type LogQuery = Record<string, string | number | undefined>;

export interface LogSource<R extends LogRowBase> {
  /** A page of rows: newest first; with `after` in the query, the rows written after it, oldest first. */
  list(query: LogQuery, signal: AbortSignal): Promise<LogPage<R>>;
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
  const loaded = useRef(false);
  /** The `after` of the next live poll. */
  const cursor = useRef(0);
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
        cursor.current = answer.next_after ?? answer.data[0]?.id ?? 0;
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
      controller = new AbortController();
      let more = false;
      try {
        const answer = await sourceRef.current.list({ ...queryRef.current(), after: cursor.current }, controller.signal);
        if (stopped) return;
        const found = answer.data;
        cursor.current = Math.max(cursor.current, answer.next_after ?? 0, ...found.map((r) => r.id));
        if (found.length > 0) {
          // Oldest first in the answer, newest first on the page; a row never shows twice.
          setPage((p) => {
            const known = new Set(p.rows.map((r) => r.id));
            const newest = found.filter((r) => !known.has(r.id)).sort((a, b) => b.id - a.id);
            return { ...p, rows: [...newest, ...p.rows].slice(0, MAX_ROWS), fresh: new Set([...p.fresh, ...newest.map((r) => r.id)]) };
          });
        }
        // A full answer may have more behind it: ask again at once.
        more = answer.data.length >= answer.limit;
        setLiveState((s) => ({ ...s, hidden: false, checkedAt: new Date(), error: null, arrived: s.arrived + found.length }));
      } catch (error) {
        if (!stopped) setLiveState((s) => ({ ...s, error: error as Error }));
      }
      if (more) return schedule(0);
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
