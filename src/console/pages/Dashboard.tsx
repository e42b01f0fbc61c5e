/** #/: the signed-in user's dashboard (GET /api/console/dashboard): balance, spending, requests and errors of their account. */
import { DashboardView, rangeOf } from '../dashboard/DashboardView.tsx';
import { DASHBOARD_WORDS } from '../dashboard/dashboardWords.ts';
import { modelOf } from '../dashboard/model.ts';
import { useT } from '../i18n/lang.ts';
import { useRoute } from '../router.ts';
import { useApi } from '../useApi.ts';

export function DashboardPage() {
  const t = useT(DASHBOARD_WORDS);
  const range = rangeOf(useRoute().query);
  const answer = useApi('getDashboard', { query: { range } });
  return (
    <DashboardView path="/" title={t('title')} intro={t('intro')} range={range} data={answer.data ? modelOf(answer.data) : null} error={answer.error}
      loading={answer.loading} onReload={() => void answer.reload(true)} logsPath="/logs" />
  );
}
