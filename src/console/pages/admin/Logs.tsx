/**
 * #/admin/logs: every account's request logs (GET /api/console/admin/logs), for admins: the user's
 * logs page with the account named on each row and filters by account and user.
 */
import { call, csvUrl } from '../../api.ts';
import { useT } from '../../i18n/lang.ts';
import { boundsOf, type LogFilters } from '../../logs/filters.ts';
import { LOG_WORDS } from '../../logs/logWords.ts';
import { LogsView } from '../../logs/LogsView.tsx';
import type { LogRow } from '../../logs/LogTable.tsx';
import type { LogQuery, LogSource } from '../../logs/useLogFeed.ts';
import { useApi } from '../../useApi.ts';

const queryOf = (f: LogFilters): LogQuery => ({
  account: f.account || undefined, user: f.user || undefined, key: f.key || undefined, model: f.model || undefined,
  status: f.status || undefined, request_id: f.request_id || undefined, ...boundsOf(f),
});

const source: LogSource<LogRow> = {
  list: (query, signal) => call('listAdminLogs', { query, signal }),
};

export function AdminLogsPage() {
  const t = useT(LOG_WORDS);
  const models = useApi('listModels');
  return (
    <LogsView path="/admin/logs" title={t('adminTitle')} intro={t('adminIntro')} source={source} queryOf={queryOf} showAccount
      csvHref={(query) => csvUrl('listAdminLogs', query)}
      loadDetail={(row, signal) => call('getAdminLog', { query: { id: row.id }, signal })}
      fields={{ models: models.data?.data.map((m) => m.name), requestId: true, account: true, user: true }} />
  );
}
