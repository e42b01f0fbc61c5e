/**
 * #/logs: the signed-in user's request logs, of every key of their account (GET /api/console/account/logs),
 * filtered by key, model, status, time and request id; live mode; CSV; a row in full (.../logs/detail).
 */
import { call, csvUrl } from '../api.ts';
import { useT } from '../i18n/lang.ts';
import { boundsOf, type LogFilters } from '../logs/filters.ts';
import { LOG_WORDS } from '../logs/logWords.ts';
import { LogsView } from '../logs/LogsView.tsx';
import type { LogRow } from '../logs/LogTable.tsx';
import type { LogQuery, LogSource } from '../logs/useLogFeed.ts';
import { useApi } from '../useApi.ts';

const queryOf = (f: LogFilters): LogQuery => ({
  key: f.key || undefined, model: f.model || undefined, status: f.status || undefined, request_id: f.request_id || undefined, ...boundsOf(f),
});

const source: LogSource<LogRow> = {
  list: (query, signal) => call('listAccountLogs', { query, signal }),
};

export function LogsPage() {
  const t = useT(LOG_WORDS);
  const keys = useApi('listKeys');
  const models = useApi('listModels');
  return (
    <LogsView path="/logs" title={t('title')} intro={t('intro')} source={source} queryOf={queryOf}
      csvHref={(query) => csvUrl('listAccountLogs', query)}
      loadDetail={(row, signal) => call('getAccountLog', { query: { id: row.id }, signal })}
      fields={{ keys: keys.data?.data ?? [], models: models.data?.data.map((m) => m.name), requestId: true, account: false, user: false }} />
  );
}
