/**
 * #/admin: the whole gateway's dashboard (GET /api/console/admin/dashboard): every account's requests,
 * errors and spending, the accounts that spent most (each linked to its logs), and how many users,
 * accounts, keys and channels there are.
 */
import { DashboardView, rangeOf } from '../../dashboard/DashboardView.tsx';
import { DASHBOARD_WORDS } from '../../dashboard/dashboardWords.ts';
import { modelOf } from '../../dashboard/model.ts';
import { useT } from '../../i18n/lang.ts';
import { useRoute } from '../../router.ts';
import { useApi } from '../../useApi.ts';

export function AdminOverviewPage() {
  const t = useT(DASHBOARD_WORDS);
  const range = rangeOf(useRoute().query);
  const answer = useApi('getGatewayDashboard', { query: { range } });
  return (
    <DashboardView path="/admin" title={t('adminTitle')} intro={t('adminIntro')} range={range} data={answer.data ? modelOf(answer.data) : null} error={answer.error}
      loading={answer.loading} onReload={() => void answer.reload(true)} logsPath="/admin/logs" isAdmin />
  );
}
