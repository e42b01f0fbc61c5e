/** #/: the signed-in user's dashboard (balance, spending, requests and errors of their account). */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { call } from '../api.ts';
import { countRows, rangeStart, type CountedRow } from '../dashboard/fromLogs.ts';
import { DashboardView, rangeOf } from '../dashboard/DashboardView.tsx';
import { DASHBOARD_WORDS } from '../dashboard/dashboardWords.ts';
import type { DashboardModel } from '../dashboard/model.ts';
import { useT } from '../i18n/lang.ts';
import { useRoute } from '../router.ts';

/** The rows counted: at most this many pages of 200. */
const MAX_PAGES = 25;

async function load(range: ReturnType<typeof rangeOf>, signal: AbortSignal): Promise<DashboardModel> {
  const now = Date.now();
  const d = new Date(now);
  const since = Math.min(rangeStart(range, now), Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
  const account = await call('getAccount', { signal });
  const rows: CountedRow[] = [];
  let before: number | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await call('listAccountLogs', { query: { since: new Date(since).toISOString(), limit: 200, before }, signal });
    rows.push(...answer.data);
    if (answer.next_before === null) break;
    before = answer.next_before;
  }
  return countRows(rows, range, now, account.account.balance.remaining);
}

export function DashboardPage() {
  const t = useT(DASHBOARD_WORDS);
  const range = rangeOf(useRoute().query);
  const [state, setState] = useState<{ data: DashboardModel | null; error: Error | null; loading: boolean }>({ data: null, error: null, loading: true });
  const latest = useRef<AbortController | null>(null);
  const reload = useCallback(() => {
    latest.current?.abort();
    const controller = new AbortController();
    latest.current = controller;
    setState((s) => ({ ...s, loading: true }));
    load(range, controller.signal).then(
      (data) => { if (!controller.signal.aborted) setState({ data, error: null, loading: false }); },
      (error: Error) => { if (!controller.signal.aborted) setState((s) => ({ data: s.data, error, loading: false })); },
    );
  }, [range]);
  useEffect(() => {
    reload();
    return () => latest.current?.abort();
  }, [reload]);
  return <DashboardView path="/" title={t('title')} intro={t('intro')} range={range} data={state.data?.range === range ? state.data : null} error={state.error}
    loading={state.loading} onReload={reload} logsPath="/logs" />;
}
