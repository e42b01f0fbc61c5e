/**
 * The request logs page, for a user's account (#/logs) or, for admins, the whole gateway
 * (#/admin/logs): the filters (kept in the address), a page of rows newest first with older pages
 * behind a `before` cursor, live mode, the CSV link carrying the same filters, a row's details, and
 * the troubleshooting order when requests failed or none arrived. What differs between the two pages
 * (the route, the filters it takes) comes from the page.
 */
import { useState } from 'preact/hooks';
import { COMMON } from '../i18n/common.ts';
import { useFormat } from '../i18n/format.ts';
import { useT } from '../i18n/lang.ts';
import { navigate, useRoute } from '../router.ts';
import { ErrorAlert } from '../ui/Alert.tsx';
import { Button } from '../ui/Button.tsx';
import { Card, PageHeader } from '../ui/Page.tsx';
import { addressOf, filtersOf, hasFilters, type LogFilters } from './filters.ts';
import { LogDetails, type LogDetail } from './LogDetails.tsx';
import { LogFilterForm, type FilterFields } from './LogFilterForm.tsx';
import { failed, LogTable, type LogRow } from './LogTable.tsx';
import { LOG_WORDS } from './logWords.ts';
import { Troubleshooting } from './Troubleshooting.tsx';
import { useLogFeed, type LiveState, type LogQuery, type LogSource } from './useLogFeed.ts';
import '../styles/logs.css';

export interface LogsViewProps {
  readonly path: string;
  readonly title: string;
  readonly intro: string;
  readonly source: LogSource<LogRow>;
  /** The route's query for these filters (only what the route takes). */
  readonly queryOf: (filters: LogFilters) => LogQuery;
  readonly csvHref: (query: LogQuery) => string;
  readonly fields: FilterFields;
  readonly showAccount?: boolean;
  readonly loadDetail?: (row: LogRow, signal: AbortSignal) => Promise<LogDetail>;
}

function LiveBar({ live }: { readonly live: LiveState }) {
  const t = useT(LOG_WORDS);
  const f = useFormat();
  const state = live.hidden ? 'paused' : live.error ? 'failing' : 'on';
  return (
    <div class={`live-bar ${state}`} role="status" id="logs-live-status" data-state={state}>
      <span class="live-dot" aria-hidden="true" />
      <span>
        {live.hidden ? t('livePaused') : live.error ? t('liveFailed', { message: live.error.message }) : t('liveOn')}
        {live.checkedAt && <> {t('lastChecked', { time: f.time(live.checkedAt.toISOString()) })}</>}
        {live.arrived > 0 && <> {t('newCount', { count: live.arrived })}</>}
      </span>
    </div>
  );
}

export function LogsView({ path, title, intro, source, queryOf, csvHref, fields, showAccount = false, loadDetail }: LogsViewProps) {
  const t = useT(LOG_WORDS);
  const common = useT(COMMON);
  const { query } = useRoute();
  const filters = filtersOf(query);
  const before = /^\d+$/.test(query.get('before') ?? '') ? Number(query.get('before')) : null;
  const live = query.get('live') === '1';
  const queryKey = JSON.stringify(filters);
  const feed = useLogFeed(source, () => queryOf(filters), queryKey, before, live);
  const [open, setOpen] = useState<LogRow | null>(null);

  const go = (next: LogFilters, extra: { before?: number | null; live?: boolean } = {}, replace = true): void =>
    navigate(path, addressOf(next, { live, ...extra }), replace);
  const toggleLive = (): void => go(filters, { live: !live, before: null });
  const failedRows = feed.rows.filter(failed).length;
  const empty = !feed.loading && !feed.error && feed.rows.length === 0;

  return (
    <>
      <PageHeader title={title} description={intro} actions={
        <>
          <button type="button" id="logs-live" class={`btn live-toggle${live ? ' on' : ''}`} aria-pressed={live} onClick={toggleLive}
            title={live ? t('liveStop') : t('liveStart')}>
            <span class="live-dot" aria-hidden="true" />{t('live')}
          </button>
          <a class="btn" id="logs-csv" href={csvHref(queryOf(filters))} download title={t('csvHint')}
            onClick={(e) => { e.currentTarget.href = csvHref(queryOf(filters)); /* a preset range counts back from the click */ }}>{t('csv')}</a>
        </>
      } />
      {live && <LiveBar live={feed.live} />}
      <Card>
        <LogFilterForm filters={filters} fields={fields} onChange={(next) => go(next, { before: null })} />
      </Card>
      <ErrorAlert error={feed.error} onRetry={feed.reload} />
      {feed.loading && feed.rows.length === 0 && <p class="loading" role="status">{common('loading')}</p>}
      {empty && (
        <div class="empty logs-empty" id="logs-empty">
          <p>{hasFilters(filters) ? t('empty') : t('emptyNone')}</p>
          {!hasFilters(filters) && <p class="muted small">{t('emptyHint')}</p>}
        </div>
      )}
      {feed.rows.length > 0 && (
        <div class={feed.loading ? 'logs-body stale' : 'logs-body'} aria-busy={feed.loading}>
          <LogTable rows={feed.rows} fresh={feed.fresh} showAccount={showAccount} onOpen={setOpen} />
          <div class="pager">
            <span class="muted small pager-count">{feed.rows.length === 1 ? t('showingOne') : t('showing', { count: feed.rows.length })}</span>
            {before !== null && <Button id="logs-newest" onClick={() => go(filters, { before: null }, false)}>{t('newest')}</Button>}
            {feed.next !== null && (
              <Button id="logs-older" onClick={() => go(filters, { before: feed.next, live: false }, false)}>{t('older')}</Button>
            )}
          </div>
        </div>
      )}
      {(failedRows > 0 || empty) && (
        <Card title={t('troubleTitle')} id="logs-trouble">
          {failedRows > 0 && <p>{failedRows === 1 ? t('troubleFailedRowsOne') : t('troubleFailedRows', { count: failedRows })}</p>}
          <Troubleshooting />
        </Card>
      )}
      {open && <LogDetails row={open} load={loadDetail} onClose={() => setOpen(null)} />}
    </>
  );
}
