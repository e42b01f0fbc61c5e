/**
 * A dashboard: the money (balance, spent today and this month), the requests and errors of the range
 * chosen (24 hours, 7 days, 30 days: kept in the address), charts of requests and errors, of spending
 * over time and by model, each with its sentence and its table, the top error reasons in the
 * contract's words with a link to those rows in the logs, and for admins the top accounts.
 */
import type { ComponentChildren } from 'preact';
import { reasonOf } from '../i18n/errorWords.ts';
import { useFormat, type MoneyLike } from '../i18n/format.ts';
import { useLang, useT, type Lang } from '../i18n/lang.ts';
import { href, navigate } from '../router.ts';
import { ErrorAlert } from '../ui/Alert.tsx';
import { Button } from '../ui/Button.tsx';
import { Chart } from '../ui/Chart.tsx';
import { COMMON } from '../i18n/common.ts';
import { Badge, Card, PageHeader, Stat } from '../ui/Page.tsx';
import { DASHBOARD_WORDS } from './dashboardWords.ts';
import { DASHBOARD_RANGES, moneyOf, type DashboardModel, type DashboardRange } from './model.ts';
import '../styles/dashboard.css';

export function rangeOf(query: URLSearchParams): DashboardRange {
  const asked = query.get('range');
  return (DASHBOARD_RANGES as readonly string[]).includes(asked ?? '') ? (asked as DashboardRange) : '24h';
}

const RANGE_WORDS = { '24h': 'range24h', '7d': 'range7d', '30d': 'range30d' } as const;

function RangeSwitch({ range, path }: { readonly range: DashboardRange; readonly path: string }) {
  const t = useT(DASHBOARD_WORDS);
  return (
    <fieldset class="segmented" id="dashboard-range">
      <legend class="sr-only">{t('range')}</legend>
      {DASHBOARD_RANGES.map((r) => (
        <label key={r} class={r === range ? 'on' : undefined}>
          <input type="radio" name="dashboard-range" id={`range-${r}`} value={r} checked={r === range}
            onChange={() => navigate(path, r === '24h' ? {} : { range: r }, true)} />
          <span>{t(RANGE_WORDS[r])}</span>
        </label>
      ))}
    </fieldset>
  );
}

/** Bucket times in the person's language: hours as "9 PM" (the day at midnight), days as "Nov 25". */
function timeWords(lang: Lang, bucketSeconds: number) {
  const daily = bucketSeconds >= 86_400;
  // Daily buckets are UTC days (as the gateway counts them): named as such, whatever the time zone here.
  const day = new Intl.DateTimeFormat(lang, { month: 'short', day: 'numeric', ...(daily ? { timeZone: 'UTC' } : {}) });
  const hour = new Intl.DateTimeFormat(lang, { hour: 'numeric' });
  const full = new Intl.DateTimeFormat(lang, daily ? { dateStyle: 'medium', timeZone: 'UTC' } : { dateStyle: 'medium', timeStyle: 'short' });
  return {
    label: (iso: string) => full.format(new Date(iso)),
    tick: (seconds: number) => {
      const d = new Date(seconds * 1000);
      if (daily) return day.format(d);
      return d.getHours() === 0 && d.getMinutes() === 0 ? day.format(d) : hour.format(d);
    },
  };
}

const micro = (m: MoneyLike): number => m.micro_usd;
const COUNTS = ['users', 'accounts', 'keys', 'channels'] as const;

export function DashboardView({ path, title, intro, range, data, error, loading, onReload, isAdmin = false, logsPath, extra }: {
  readonly path: string;
  readonly title: string;
  readonly intro: string;
  readonly range: DashboardRange;
  readonly data: DashboardModel | null;
  readonly error: Error | null;
  readonly loading: boolean;
  readonly onReload: () => void;
  readonly isAdmin?: boolean;
  /** Where "see in the logs" goes: #/logs or #/admin/logs. */
  readonly logsPath: string;
  readonly extra?: ComponentChildren;
}) {
  const t = useT(DASHBOARD_WORDS);
  const common = useT(COMMON);
  const f = useFormat();
  const { lang } = useLang();
  const rangeWords = t(RANGE_WORDS[range]);

  const header = (
    <PageHeader title={title} description={intro} actions={
      <>
        <RangeSwitch range={range} path={path} />
        <Button id="dashboard-refresh" busy={loading && data !== null} onClick={onReload}>{common('refresh')}</Button>
      </>
    } />
  );
  if (!data) {
    return (
      <>
        {header}
        <ErrorAlert error={error} onRetry={onReload} />
        {loading && <p class="loading" role="status">{common('loading')}</p>}
      </>
    );
  }

  const times = timeWords(lang, data.bucketSeconds);
  const unit = data.bucketSeconds >= 86_400 ? t('day') : t('hour');
  const x = data.buckets.map((b) => Math.floor(Date.parse(b.start) / 1000));
  const busiest = data.buckets.reduce<(typeof data.buckets)[number] | null>((best, b) => (best === null || b.requests > best.requests ? b : best), null);
  const dearest = data.buckets.reduce<(typeof data.buckets)[number] | null>((best, b) => (best === null || micro(b.cost) > micro(best.cost) ? b : best), null);
  // The gateway's order (most spent, then most requests), "other models" last.
  const models = data.byModel;
  const modelName = (m: (typeof models)[number]): string => (m.others !== undefined ? t('otherModels', { count: m.others }) : m.model ?? t('noModel'));
  const usedModels = models.reduce((n, m) => n + (m.others ?? 1), 0);
  const money = (v: number): string => f.usd(moneyOf(Math.max(0, Math.round(v))));
  const rate = data.requests > 0 ? new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 1 }).format(data.errors / data.requests) : null;
  const logsLink = (query: Record<string, string | undefined>): string => href(logsPath, { range, ...query });

  return (
    <>
      {header}
      <ErrorAlert error={error} onRetry={onReload} />
      <div class="grid stats dash-stats" data-testid="dashboard-stats" aria-busy={loading}>
        <Stat label={isAdmin ? t('balances') : t('balance')} value={f.usd(data.balance)} testId="stat-balance"
          sub={isAdmin ? t('balancesNote') : <a href={href('/topup')}>{t('topUp')}</a>} />
        <Stat label={t('spentToday')} value={f.usd(data.spentToday)} testId="stat-today" sub={t('utcNote')} />
        <Stat label={t('spentMonth')} value={f.usd(data.spentMonth)} testId="stat-month" />
        <Stat label={t('requests')} value={f.number(data.requests)} testId="stat-requests" sub={t('inRange', { range: rangeWords })} />
        <Stat label={t('errors')} value={f.number(data.errors)} testId="stat-errors" sub={rate ? t('errorRate', { rate }) : t('inRange', { range: rangeWords })} />
        <Stat label={t('latency')} testId="stat-latency" value={data.latency.p50 === null ? '—' : f.ms(data.latency.p50)}
          sub={data.latency.p95 === null ? t('latencyNone') : t('latencyP95', { ms: f.ms(data.latency.p95) })} />
        {data.counts && COUNTS.map((name) => <Stat key={name} label={t(name)} value={f.number(data.counts![name])} testId={`stat-${name}`} />)}
      </div>
      {extra}
      <div class="dash-grid">
        <Card title={t('activity')} id="chart-activity">
          <Chart testId="chart-requests" kind="bars" label={t('activityLabel', { range: rangeWords })} x={x} xHeader={t('bucket')}
            xLabel={(i) => times.label(data.buckets[i]!.start)} tick={times.tick} format={(v) => f.number(Math.round(v))}
            series={[
              { label: t('requests'), tone: 'accent', values: data.buckets.map((b) => b.requests), idle: f.number(data.requests) },
              { label: t('errors'), tone: 'bad', values: data.buckets.map((b) => b.errors), idle: f.number(data.errors) },
            ]} xIdle={rangeWords}
            summary={busiest && busiest.requests > 0
              ? t('activitySummary', { requests: f.number(data.requests), errors: f.number(data.errors), range: rangeWords, unit, peak: times.label(busiest.start), peakCount: f.number(busiest.requests) })
              : t('activityQuiet', { range: rangeWords })} />
        </Card>
        <Card title={t('spending')} id="chart-spending">
          <Chart testId="chart-cost" kind="line" label={t('spendingLabel', { range: rangeWords })} x={x} xHeader={t('bucket')}
            xLabel={(i) => times.label(data.buckets[i]!.start)} tick={times.tick} format={money}
            series={[{ label: t('cost'), tone: 'ok', values: data.buckets.map((b) => micro(b.cost)), idle: f.usd(data.cost) }]} xIdle={rangeWords}
            summary={dearest ? t('spendingSummary', { cost: f.usd(data.cost), range: rangeWords, unit, peakCost: f.usd(dearest.cost), peak: times.label(dearest.start) }) : ''} />
        </Card>
        <Card title={t('byModel')} id="chart-models">
          {models.length === 0 ? <p class="empty">{t('byModelEmpty', { range: rangeWords })}</p> : (
            <Chart testId="chart-by-model" kind="bars" label={t('byModelLabel', { range: rangeWords })} x={models.map((_, i) => i)} categories={models.map(modelName)}
              xHeader={t('model')} xLabel={(i) => modelName(models[i]!)} format={money} xIdle={usedModels === 1 ? t('modelCountOne') : t('modelCount', { count: usedModels })}
              series={[{ label: t('cost'), tone: 'chart-5', values: models.map((m) => micro(m.cost)), idle: f.usd(data.cost) }]}
              summary={usedModels === 1 ? t('byModelSummaryOne', { model: modelName(models[0]!), cost: f.usd(models[0]!.cost) })
                : t('byModelSummary', { count: usedModels, model: modelName(models[0]!), cost: f.usd(models[0]!.cost), total: f.usd(data.cost) })} />
          )}
        </Card>
        <Card title={t('topErrors')} id="top-errors" actions={data.topErrors.length > 0 ? <a href={logsLink({ status: 'error' })} id="top-errors-logs">{t('seeLogs')}</a> : undefined}>
          {data.topErrors.length === 0 ? <p class="empty">{t('topErrorsEmpty', { range: rangeWords })}</p> : (
            <ol class="error-reasons" data-testid="top-errors">
              {data.topErrors.map((e) => (
                <li key={`${e.status}-${e.code}`} data-code={e.code ?? ''}>
                  <div class="error-reason-head">
                    <Badge tone={e.status >= 400 ? 'bad' : 'warn'}>{e.status}</Badge>
                    {e.code && <code>{e.code}</code>}
                    <span class="error-count">{f.number(e.count)}</span>
                  </div>
                  <p class="error-words">{reasonOf(e.code, e.status, lang)}</p>
                </li>
              ))}
            </ol>
          )}
        </Card>
        {isAdmin && data.topAccounts && (
          <Card title={t('topAccounts')} id="top-accounts">
            {data.topAccounts.length === 0 ? <p class="empty">{t('topAccountsEmpty', { range: rangeWords })}</p> : (
              <div class="table-frame">
                <table data-testid="top-accounts">
                  <thead><tr><th scope="col">{t('account')}</th><th scope="col" class="num">{t('requests')}</th><th scope="col" class="num">{t('errors')}</th><th scope="col" class="num">{t('cost')}</th></tr></thead>
                  <tbody>
                    {data.topAccounts.map((a) => (
                      <tr key={a.account} data-account={a.account}>
                        <td class="wrap"><a href={logsLink({ account: a.account })}>{a.account}</a></td>
                        <td class="num">{f.number(a.requests)}</td>
                        <td class="num">{a.errors === undefined ? '—' : f.number(a.errors)}</td>
                        <td class="num">{f.usd(a.cost)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </Card>
        )}
      </div>
    </>
  );
}
